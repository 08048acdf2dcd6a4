import DFUEngine
import DFUGATT
import DFUProfile
import XCTest

/// How the engine reconnects after a command that reboots the device, against a scripted
/// device (not the simulators): it never talks to the device before it rebooted.
final class RebootReconnectTests: XCTestCase {
    private static let profileText = ScriptedRebootingDevice.profileText(procedure: """
        procedure:
          - send: state
          - phase: reboot
            done: state.booted >= 2
            achieves: installed
            steps:
              - send: reset
              - reconnect: { address: same }
              - send: state
              - check: state.booted == 2
                message: the device did not reboot
        """)

    private func flash(_ device: ScriptedRebootingDevice, profile text: String = profileText) async throws -> (FlashReport, [String]) {
        let profile = try ProfileLoader.load(text: text, path: "rebooting.yaml")
        nonisolated(unsafe) var said: [String] = []
        let report = await FlashSession(profile: profile, images: [FlashImage(name: "app", version: "1", data: [1, 2, 3])],
                                        transport: device, address: device.address,
                                        onEvent: { if case let .rebooting(text) = $0 { said.append(text) } }).run()
        return (report, said)
    }

    private func events(_ device: ScriptedRebootingDevice) -> [String] { device.log.map(\.event) }

    func testTheReconnectWaitsForTheDropAndTheBootBeforeConnecting() async throws {
        let device = ScriptedRebootingDevice()
        let (report, said) = try await flash(device)
        XCTAssertEqual(report.status, .completed, String(describing: report.error))
        // 'booted' is not the image: nothing showed which image runs, and the report says so.
        XCTAssertEqual(report.deviceHolds, [.unchanged, .installed])
        XCTAssertEqual(events(device), ["connected", "state asked", "reset", "reboot", "advertising seen", "connected",
                                        "state asked", "central disconnected"])
        let reset = try XCTUnwrap(device.log.first { $0.event == "reset" }?.time)
        let reconnected = try XCTUnwrap(device.log.last { $0.event == "connected" }?.time)
        XCTAssertGreaterThanOrEqual(reconnected - reset, device.resetDelay + device.bootTime,
                                    "connected only once the device had rebooted and booted")
        XCTAssertTrue(said.contains { $0.hasPrefix("waiting up to 10 s for C0:FF:EE:00:00:09 to advertise again after 'reset'") },
                      "\(said)")
    }

    func testALostAnswerToTheResetResumesAfterTheRebootAndSkipsWhatIsDone() async throws {
        let device = ScriptedRebootingDevice()
        device.answersReset = false
        let (report, _) = try await flash(device)
        // The reset's answer never comes; the device reboots (link lost); the engine waits for
        // the grace time and the boot, reconnects, asks again: the reboot phase is done.
        XCTAssertEqual(report.status, .completed, String(describing: report.error))
        XCTAssertEqual(report.resumes, 1)
        XCTAssertEqual(report.phasesDone, ["reboot"])
        XCTAssertFalse(events(device).contains("state asked before the reboot"), "\(events(device))")
        XCTAssertFalse(events(device).contains("connected before the reboot"), "\(events(device))")
        XCTAssertEqual(events(device).filter { $0 == "reset" }.count, 1, "the reset is not sent again")
    }

    func testADeviceThatKeepsTheLinkIsDisconnectedAfterTheGraceTime() async throws {
        let device = ScriptedRebootingDevice()
        device.resetDelay = .seconds(5)  // longer than the profile's 2 s grace
        let (report, said) = try await flash(device)
        XCTAssertTrue(said.contains("the device kept the link 2 s after 'reset'; disconnecting"), "\(said)")
        // A grace time shorter than the device's reset delay: the engine drops the link itself and
        // reaches the device before it rebooted; the procedure's check tells, nothing is claimed.
        XCTAssertTrue(events(device).contains("connected before the reboot"), "\(events(device))")
        XCTAssertEqual(report.status, .failed)
        XCTAssertEqual(report.error?.message, "check: expected state.booted == 2 (the device did not reboot; state.booted = 1)")
        // The reset was answered: the device may yet reboot (it does, 5 s after the reset).
        XCTAssertEqual(report.error?.deviceHolds, [.unchanged, .installed])
    }

    func testADeviceThatDoesNotComeBackInTheBootTimeoutFailsSayingSo() async throws {
        let device = ScriptedRebootingDevice()
        device.bootTime = .seconds(60)
        let (report, _) = try await flash(device)
        XCTAssertEqual(report.status, .failed)
        let message = try XCTUnwrap(report.error?.message)
        XCTAssertTrue(message.contains("the device did not advertise again within 10 s after 'reset' rebooted it"), message)
        XCTAssertEqual(report.error?.deviceHolds.first, .unchanged)
    }
}
