import DFULedger
import DFUStation
import Foundation
import XCTest

/// The controls recorded in a real SQLite ledger, as `dfukit station resume` and `release`
/// record theirs: once when there is something to do, false after, and the operator kept.
final class LedgerDashboardControlsTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("dfukit-controls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func testResumesAHaltedLineOnceAndReleasesAQuarantinedDeviceOnce() async throws {
        let url = LedgerURL.sqlite(path: directory.appendingPathComponent("line.sqlite").path)
        let ledger = try await url.open()
        _ = try await ledger.recordLineEvent(LineEvent(kind: .halted, line: "east", station: "st-1", reason: "too many failures",
                                                       rule: "failed >= 2 of last 3"))
        _ = try await ledger.recordLineEvent(LineEvent(kind: .quarantined, line: "east", station: "st-1",
                                                       device: "C0:FF:EE:00:00:07"))
        await ledger.close()

        let controls = LedgerDashboardControls(ledgerURL: url)
        let resumed = try await controls.resume(line: "east", operator: "ann", reason: "fixture reseated")
        XCTAssertTrue(resumed)
        let again = try await controls.resume(line: "east", operator: "ann", reason: nil)
        XCTAssertFalse(again, "not halted any more")
        let released = try await controls.release(device: "C0:FF:EE:00:00:07", operator: "bob", reason: nil)
        XCTAssertTrue(released)
        let releasedAgain = try await controls.release(device: "C0:FF:EE:00:00:07", operator: "bob", reason: nil)
        XCTAssertFalse(releasedAgain)

        let reader = try await url.open()
        let events = try await reader.lineEvents(line: nil)
        await reader.close()
        XCTAssertEqual(events.map(\.kind), [.halted, .quarantined, .resumed, .released])
        XCTAssertEqual(events[2].operatorName, "ann")
        XCTAssertEqual(events[2].reason, "fixture reseated")
        XCTAssertEqual(events[3].operatorName, "bob")
        XCTAssertEqual(events[3].device, "C0:FF:EE:00:00:07")
    }

    func testAMissingLedgerIsUnavailable() async throws {
        let missing = directory.appendingPathComponent("missing.sqlite").path
        let controls = LedgerDashboardControls(ledgerURL: .sqlite(path: missing))
        do {
            _ = try await controls.resume(line: "east", operator: "ann", reason: nil)
            XCTFail("recorded in a ledger that does not exist")
        } catch {
            XCTAssertEqual(error.kind, .unavailable)
            XCTAssertTrue(error.message.hasPrefix("the control was not recorded: ledger sqlite:\(missing)"), error.message)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing), "no ledger was created")
    }
}
