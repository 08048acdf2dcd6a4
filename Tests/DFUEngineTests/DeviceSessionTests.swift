import DFUEngine
import DFUGATT
import DFUProfile
import XCTest

/// One `DeviceSession` for several operations on one device, against a scripted device that
/// keeps answering for a while after its reset (as Zephyr does for 250 ms): the link is kept
/// while it is up and the device was not told to reboot; after an update that ended with a
/// rebooting command, the next operation waits for the reboot before it talks to the device.
final class DeviceSessionTests: XCTestCase {
    private static let profileText = ScriptedRebootingDevice.profileText(procedure: """
        procedure:
          - send: state
          - phase: activate
            done: state.booted >= 2
            achieves: installed
            steps:
              - send: reset
        """)

    private func session(_ device: ScriptedRebootingDevice) throws -> DeviceSession {
        DeviceSession(profile: try ProfileLoader.load(text: Self.profileText, path: "rebooting.yaml"), transport: device,
                      address: device.address)
    }

    private func events(_ device: ScriptedRebootingDevice) -> [String] { device.log.map(\.event) }

    private func booted(_ expected: Int) throws -> [DFUProfile.Expression] {
        [try ExpressionParser.parse("state.booted == \(expected)", at: SourceLocation(file: "line.yaml", line: 1, column: 1))]
    }

    func testOperationsInSequenceShareOneConnection() async throws {
        let device = ScriptedRebootingDevice()
        let session = try session(device)
        let first = await CommandExecution.run("state", on: session)
        XCTAssertEqual(first.fields?["booted"], .integer(1))
        let check = await CommandExecution.check("state", expect: try booted(1), image: FlashImage(name: "app", version: "1", data: [1]),
                                                 on: session)
        XCTAssertNil(check)
        await session.close()
        XCTAssertEqual(session.connections, 1)
        XCTAssertEqual(events(device), ["connected", "state asked", "state asked", "central disconnected"])
    }

    /// The update's last command reboots the device and no `reconnect` follows it: the check after
    /// it gives the device its grace time to drop the link, waits for it to advertise, connects,
    /// and only then asks. Reusing the link (still up for 250 ms) would ask the old firmware.
    func testACheckAfterAnUpdateThatEndedWithAResetWaitsForTheReboot() async throws {
        let device = ScriptedRebootingDevice()
        let session = try session(device)
        let image = FlashImage(name: "app", version: "1", data: [1, 2, 3])
        let report = await FlashSession(on: session, profile: session.profile, images: [image]).run()
        XCTAssertEqual(report.status, .completed, String(describing: report.error))
        // Nothing after the reset showed which image runs: the report leaves it open.
        XCTAssertEqual(report.deviceHolds, [.unchanged, .installed])
        let check = await CommandExecution.check("state", expect: try booted(2), image: image, on: session)
        XCTAssertNil(check)
        await session.close()
        XCTAssertEqual(events(device), ["connected", "state asked", "reset", "reboot", "advertising seen", "connected",
                                        "state asked", "central disconnected"])
        XCTAssertEqual(session.connections, 2)
        let reset = try XCTUnwrap(device.log.first { $0.event == "reset" }?.time)
        let reconnected = try XCTUnwrap(device.log.last { $0.event == "connected" }?.time)
        XCTAssertGreaterThanOrEqual(reconnected - reset, device.resetDelay + device.bootTime)
    }

    /// A command that reboots the device, run alone (`dfukit exec reset`), leaves the same wait
    /// for whatever runs next on the session.
    func testACommandThatRebootsLeavesTheWaitForTheNextOne() async throws {
        let device = ScriptedRebootingDevice()
        let session = try session(device)
        let reset = await CommandExecution.run("reset", on: session)
        XCTAssertNil(reset.report.error)
        let state = await CommandExecution.run("state", on: session)
        XCTAssertEqual(state.fields?["booted"], .integer(2))
        XCTAssertFalse(events(device).contains("state asked before the reboot"), "\(events(device))")
        XCTAssertFalse(events(device).contains("connected before the reboot"), "\(events(device))")
        await session.close()
    }

    /// A link the device ended between operations (it rebooted by itself) is noticed before the
    /// next one, which connects again instead of failing on the dead link.
    func testALinkThatDroppedBetweenOperationsIsConnectedAgain() async throws {
        let device = ScriptedRebootingDevice()
        let session = try session(device)
        _ = await CommandExecution.run("state", on: session)
        device.rebootsOnItsOwn(after: .seconds(1))
        await device.sleep(until: device.now + .seconds(10))
        let state = await CommandExecution.run("state", on: session)
        XCTAssertNil(state.report.error)
        XCTAssertEqual(state.fields?["booted"], .integer(2))
        XCTAssertEqual(session.connections, 2)
        await session.close()
    }
}
