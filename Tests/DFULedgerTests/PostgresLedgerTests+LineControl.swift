import DFULedger
import Foundation
import XCTest

/// Halts, resumes, quarantines and releases on PostgreSQL, as on SQLite.
extension PostgresLedgerTests {
    func testLineControlsAreRecordedOnceAndRestartTheirCounts() async throws {
        let ledger = try await open()
        let line = "pg-line-" + UUID().uuidString.prefix(8)
        try await LineControlFixtures.exercise(ledger, line: line, package: LedgerFixtures.freshPackage(), prefix: "PG:00:0C")
        await ledger.close()
    }

    /// Two stations tripping the rule at once: exactly one halt is recorded.
    func testTwoStationsHaltingAtOnceRecordOneHalt() async throws {
        let line = "pg-race-" + UUID().uuidString.prefix(8)
        let text = try XCTUnwrap(ProcessInfo.processInfo.environment["DFUKIT_TEST_POSTGRES_URL"])
        let url = try LedgerURL(parsing: text)
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for station in ["a", "b", "c", "d"] {
                group.addTask {
                    let ledger = try await url.open()
                    let recorded = try await ledger.recordLineEvent(LineEvent(kind: .halted, line: line, station: station,
                                                                              rule: "failed >= 1 of last 1"))
                    await ledger.close()
                    return recorded
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        XCTAssertEqual(results.filter { $0 }.count, 1)
        let ledger = try await open()
        let events = try await ledger.lineEvents(line: line)
        XCTAssertEqual(events.filter { $0.kind == .halted }.count, 1)
        await ledger.close()
    }
}
