import DFUBatch
import DFUEngine
import DFUGATT
import DFUPackage
import DFUProfile
import DFUSimulator
import Foundation
import XCTest

/// One device session per batch attempt: the probe (`skip-installed`), the update and the
/// post-flash checks share one link where the protocol allows it, and a check after an update
/// that left the device rebooting connects only once the device has rebooted. Counted from the
/// device's side, in the simulated devices' journal (`journal=DIR`).
final class SessionConnectionTests: XCTestCase {
    private let root = BatchRunnerTests.root

    /// What one device lived through, in order: `connect`, `disconnect`, `write`, `activated`, `reset`.
    private struct Journal {
        var events: [String]
        var connects: Int { events.filter { $0 == "connect" }.count }
    }

    /// Runs the line against one simulated device that keeps a journal; the summary, the ledger's
    /// records and what the device lived through.
    private func run(_ line: LineConfiguration, profile name: String, images: [FlashImage], device: String,
                     again previous: (fleet: SimulatedFleet, directory: String)? = nil) async throws
        -> (summary: BatchSummary, records: [AttemptRecord], journal: Journal, fleet: SimulatedFleet, directory: String) {
        let directory = previous?.directory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("dfukit-session-\(UUID().uuidString)").path
        let journalPath = directory + "/journal.log"
        let before = (try? String(contentsOfFile: journalPath, encoding: .utf8))?.split(separator: "\n").count ?? 0
        let profile = try ProfileLoader.load(path: root.appendingPathComponent("profiles/\(name).yaml").path)
        let checked = try LinePlanValidator.validate(line, profile: profile, images: images)
        let fleet = try previous?.fleet ?? SimulatedFleet(try SimulatorConfiguration(parsing: "\(device)&fleet=1&journal=\(directory)"))
        let ledger = MemoryLedger()
        let summary = try await BatchRunner(plan: .init(line: checked, profile: profile, images: images),
                                            source: FleetSource(fleet: fleet), ledger: ledger).run()
        let lines = try String(contentsOfFile: journalPath, encoding: .utf8).split(separator: "\n").dropFirst(before)
        let events = try lines.map { line -> String in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return try XCTUnwrap(object?["event"] as? String)
        }
        return (summary, ledger.records, Journal(events: events), fleet, directory)
    }

    private func parse(_ text: String) throws -> DFUProfile.Expression {
        try ExpressionParser.parse(text, at: SourceLocation(file: "line.yaml", line: 1, column: 1))
    }

    private func mcubootImages() throws -> [FlashImage] {
        let package = try FirmwarePackage.open(path: root.appendingPathComponent("firmware-samples/mcuboot/app-unsigned.bin").path)
        return package.images.map {
            FlashImage(name: $0.name, version: $0.version, data: $0.data, imageHash: $0.mcubootImage?.imageHash ?? [])
        }
    }

    /// MCUmgr SMP, upload-only: nothing reboots the device, so the probe, the upload and the
    /// check run over the one link the attempt opened.
    func testAnUpdateThatDoesNotRebootConnectsOnceForProbeUpdateAndChecks() async throws {
        var line = LineConfiguration()
        line.parameters = ["mode": .text("upload-only")]
        line.skipInstalled = SkipInstalledRule(
            source: .command("image_list"),
            installed: try parse("get(find(image_list.body.images, 'hash', image.hash), 'active', false)"), version: nil)
        line.checks = [PostFlashCheck(command: "image_list", expect: [try parse("has(image_list.body.images, 'hash', image.hash)")])]
        let run = try await run(line, profile: "mcumgr-smp", images: try mcubootImages(), device: "mcumgr-smp?mtu=247")
        XCTAssertEqual(run.summary.succeeded, 1, "\(run.records.map { $0.errorMessage ?? "" })")
        XCTAssertEqual(run.journal.connects, 1, "probe, upload and check on one link: \(run.journal.events)")
        XCTAssertEqual(run.journal.events.first, "connect")
        XCTAssertFalse(run.journal.events.contains("reset"))
    }

    /// The vendor control point reboots the device once (`activate`, then the procedure's own
    /// `reconnect`): the probe and the update share the first link, the check runs on the link
    /// the procedure ended on. Before, each opened its own: four connections.
    func testVendorControlPointConnectsOnceBeforeAndOnceAfterItsReboot() async throws {
        var line = LineConfiguration()
        line.skipInstalled = SkipInstalledRule(source: .command("info"), installed: try parse("info.sha256 == image.sha256"),
                                               version: nil)
        line.checks = [PostFlashCheck(command: "info", expect: [try parse("info.sha256 == image.sha256")]),
                       PostFlashCheck(command: "status", expect: [])]
        let image = FlashImage(name: "application", version: "1.0.0",
                               data: (0..<9_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) })
        let first = try await run(line, profile: "vendor-ctrlpt", images: [image], device: "vendor-ctrlpt?mtu=247")
        XCTAssertEqual(first.summary.succeeded, 1, "\(first.records.map { $0.errorMessage ?? "" })")
        XCTAssertEqual(first.journal.connects, 2, "\(first.journal.events)")
        let reset = try XCTUnwrap(first.journal.events.firstIndex(of: "reset"))
        XCTAssertEqual(first.journal.events[..<reset].filter { $0 == "connect" }.count, 1,
                       "probe and update on one link before activate")
        XCTAssertEqual(first.journal.events[reset...].filter { $0 == "connect" }.count, 1,
                       "the procedure's reconnect after the reboot; the checks run on that link")

        // Run again: the device runs the image; the probe's one connection skips it, with what it saw.
        let second = try await run(line, profile: "vendor-ctrlpt", images: [image], device: "vendor-ctrlpt?mtu=247",
                                   again: (first.fleet, first.directory))
        XCTAssertEqual(second.summary.skipped, 1)
        XCTAssertEqual(second.summary.attempts, 0)
        XCTAssertEqual(second.records.map(\.result), [.skipped])
        XCTAssertEqual(second.records.first?.deviceVersion, "info.sha256 = \(SHA256Hex.of(image.data))")
        XCTAssertEqual(second.journal.connects, 1, "\(second.journal.events)")
        XCTAssertFalse(second.journal.events.contains("reset"), "nothing but the probe: \(second.journal.events)")
    }

    /// MCUmgr SMP, test-and-confirm: `reset` reboots the device and the procedure reconnects
    /// after it (then confirms); the check runs on that link, after the reboot.
    func testSMPTestAndConfirmChecksOnTheLinkAfterTheReset() async throws {
        var line = LineConfiguration()
        line.skipInstalled = SkipInstalledRule(
            source: .command("image_list"),
            installed: try parse("get(find(image_list.body.images, 'hash', image.hash), 'active', false)"), version: nil)
        line.checks = [PostFlashCheck(command: "image_list", expect: [
            try parse("get(find(image_list.body.images, 'hash', image.hash), 'confirmed', false)")])]
        let run = try await run(line, profile: "mcumgr-smp", images: try mcubootImages(), device: "mcumgr-smp?mtu=247")
        XCTAssertEqual(run.summary.succeeded, 1, "\(run.records.map { $0.errorMessage ?? "" })")
        XCTAssertEqual(run.journal.connects, 2, "\(run.journal.events)")
        let reset = try XCTUnwrap(run.journal.events.lastIndex(of: "reset"))
        XCTAssertEqual(run.journal.events[reset...].filter { $0 == "connect" }.count, 1)
    }

    /// Nordic Secure DFU: the last Execute reboots the device and the procedure ends there (no
    /// `reconnect` after the last image). The check waits for the reboot, as a `reconnect` step
    /// would, and connects once the device is back: never before its reset.
    func testNordicChecksConnectOnlyAfterTheRebootTheUpdateEndedWith() async throws {
        let package = try FirmwarePackage.open(path: root.appendingPathComponent("firmware-samples/nordic/app-signed.zip").path)
        let images = package.images.map {
            FlashImage(name: $0.name, version: $0.version, data: $0.data, initPacket: $0.initPacket ?? [],
                       softDeviceSize: $0.softDeviceSize, bootloaderSize: $0.bootloaderSize,
                       applicationSize: $0.applicationSize)
        }
        var line = LineConfiguration()
        line.checks = [PostFlashCheck(command: "select_command", expect: [])]
        let run = try await run(line, profile: "nordic-secure-dfu", images: images, device: "nordic-secure-dfu?mtu=247")
        XCTAssertEqual(run.summary.succeeded, 1, "\(run.records.map { $0.errorMessage ?? "" })")
        XCTAssertEqual(run.journal.connects, 2, "\(run.journal.events)")
        let lastConnect = try XCTUnwrap(run.journal.events.lastIndex(of: "connect"))
        let reset = try XCTUnwrap(run.journal.events.firstIndex(of: "reset"))
        XCTAssertGreaterThan(lastConnect, reset, "the check connected after the device's reset: \(run.journal.events)")
        XCTAssertEqual(run.journal.events[..<reset].filter { $0 == "connect" }.count, 1)
    }
}
