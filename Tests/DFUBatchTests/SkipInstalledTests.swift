import DFUBatch
import DFUEngine
import DFUGATT
import DFUPackage
import DFUProfile
import DFUSimulator
import Foundation
import XCTest

/// `skip-installed` and the clock attempts are stamped with, over a simulated fleet.
final class SkipInstalledTests: XCTestCase {
    private func profile() throws -> Profile {
        try ProfileLoader.load(path: BatchRunnerTests.root.appendingPathComponent("profiles/vendor-ctrlpt.yaml").path)
    }

    private let image = FlashImage(name: "application", version: "1.0.0",
                                   data: (0..<9_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) })

    private func rule(_ installed: String, version: String? = nil) throws -> SkipInstalledRule {
        let place = SourceLocation(file: "line.yaml", line: 1, column: 1)
        return SkipInstalledRule(source: .command("info"), installed: try ExpressionParser.parse(installed, at: place),
                                 version: try version.map { try ExpressionParser.parse($0, at: place) })
    }

    private func run(_ line: LineConfiguration, fleet: SimulatedFleet, ledger: MemoryLedger) async throws -> BatchSummary {
        let runner = BatchRunner(plan: .init(line: line, profile: try profile(), images: [image]),
                                 source: FleetSource(fleet: fleet), ledger: ledger)
        return try await runner.run()
    }

    /// The same devices run again with a fresh ledger (another line, a lost ledger): those that
    /// run the image already are skipped with what they run, and nothing is written to them.
    func testDevicesRunningTheTargetAreSkippedWithTheVersionSeen() async throws {
        let fleet = try SimulatedFleet(try SimulatorConfiguration(parsing: "vendor-ctrlpt?fleet=4"))
        var line = LineConfiguration()
        line.skipInstalled = try rule("info.sha256 == image.sha256")
        let first = try await run(line, fleet: fleet, ledger: MemoryLedger())
        XCTAssertEqual(first.succeeded, 4, "nothing runs the image yet: every device is flashed")
        XCTAssertEqual(first.skipped, 0)

        let ledger = MemoryLedger()
        let second = try await run(line, fleet: fleet, ledger: ledger)
        XCTAssertEqual(second.skipped, 4)
        XCTAssertEqual(second.succeeded, 0)
        XCTAssertEqual(second.attempts, 0, "no update was attempted")
        XCTAssertEqual(ledger.records.count, 4)
        let digest = SHA256Hex.of(image.data)
        for record in ledger.records {
            XCTAssertEqual(record.result, .skipped)
            XCTAssertEqual(record.deviceVersion, "info.sha256 = \(digest)")
            XCTAssertEqual(record.clock, .simulated)
        }
        XCTAssertEqual(ledger.done.count, 4, "a skipped device is done")
    }

    func testAVersionExpressionSaysWhatIsRecorded() async throws {
        let fleet = try SimulatedFleet(try SimulatorConfiguration(parsing: "vendor-ctrlpt?fleet=2"))
        var line = LineConfiguration()
        line.skipInstalled = try rule("info.size != image.size", version: "info.size")
        let ledger = MemoryLedger()
        let summary = try await run(line, fleet: fleet, ledger: ledger)
        XCTAssertEqual(summary.skipped, 2)
        XCTAssertTrue(ledger.records.allSatisfy { $0.deviceVersion?.hasPrefix("") == true && $0.result == .skipped })
        XCTAssertEqual(Set(ledger.records.compactMap(\.deviceVersion)).count, 1, "both devices run the same factory image")
    }

    /// The README's MCUmgr SMP rule: the image list says our image (by its MCUboot hash) is
    /// active; the version recorded is the active image's.
    func testTheSMPImageListRuleSkipsDevicesRunningTheImage() async throws {
        let root = BatchRunnerTests.root
        let package = try FirmwarePackage.open(path: root.appendingPathComponent("firmware-samples/mcuboot/app-unsigned.bin").path)
        let images = package.images.map {
            FlashImage(name: $0.name, version: $0.version, data: $0.data, imageHash: $0.mcubootImage?.imageHash ?? [])
        }
        let profile = try ProfileLoader.load(path: root.appendingPathComponent("profiles/mcumgr-smp.yaml").path)
        var line = try LineFileLoader.load(text: """
            skip-installed:
              exec: image_list
              installed: "get(find(image_list.body.images, 'hash', image.hash), 'active', false)"
              version: "get(find(image_list.body.images, 'active', true), 'version', '?')"
            """, path: "line.yaml")
        line = try LinePlanValidator.validate(line, profile: profile, images: images)
        let fleet = try SimulatedFleet(try SimulatorConfiguration(parsing: "mcumgr-smp?fleet=2"))
        func run(_ ledger: MemoryLedger) async throws -> BatchSummary {
            try await BatchRunner(plan: .init(line: line, profile: profile, images: images), source: FleetSource(fleet: fleet),
                                  ledger: ledger).run()
        }
        let first = try await run(MemoryLedger())
        XCTAssertEqual(first.succeeded, 2, "the factory image is another: both are flashed")
        let ledger = MemoryLedger()
        let second = try await run(ledger)
        XCTAssertEqual(second.skipped, 2, "test-and-confirm left our image active")
        // The image is 1.2.3+4; MCUmgr reports versions as major.minor.revision.build.
        XCTAssertEqual(images[0].version, "1.2.3+4")
        XCTAssertEqual(ledger.records.map(\.deviceVersion), ["1.2.3.4", "1.2.3.4"])
    }

    /// Simulated attempts are placed on the simulated timeline: one slot's attempts follow each
    /// other, each as long as its own simulated seconds.
    func testSimulatedAttemptsAreStampedOnTheSimulatedTimeline() async throws {
        let fleet = try SimulatedFleet(try SimulatorConfiguration(parsing: "vendor-ctrlpt?fleet=3"))
        let before = Date().timeIntervalSince1970
        let ledger = MemoryLedger()
        let summary = try await run(LineConfiguration(), fleet: fleet, ledger: ledger)
        XCTAssertEqual(summary.succeeded, 3)
        let records = ledger.records.sorted { $0.startedAt < $1.startedAt }
        XCTAssertEqual(records.count, 3)
        XCTAssertTrue(records.allSatisfy { $0.clock == .simulated })
        XCTAssertGreaterThanOrEqual(records[0].startedAt, before)
        for (earlier, later) in zip(records, records.dropFirst()) {
            XCTAssertEqual(later.startedAt, earlier.endedAt, accuracy: 1e-6, "one slot: back to back")
        }
        for record in records {
            XCTAssertEqual(record.endedAt - record.startedAt, record.seconds, accuracy: 1e-6)
            XCTAssertGreaterThan(record.seconds, 1, "simulated seconds, not the instant the simulation took")
        }
        XCTAssertEqual(records[2].endedAt - records[0].startedAt, summary.seconds, accuracy: 1e-6)
    }
}

/// Lowercase hex SHA-256.
enum SHA256Hex {
    static func of(_ bytes: [UInt8]) -> String { FlashImage(name: "", version: "", data: bytes).sha256.map { String(format: "%02x", $0) }.joined() }
}
