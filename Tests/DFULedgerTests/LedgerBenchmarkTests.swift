import DFULedger
import XCTest

/// `LedgerBenchmark.writesPerSecond` (what `make bench` calls) on SQLite; the PostgreSQL run is in
/// PostgresLedgerTests.
final class LedgerBenchmarkTests: XCTestCase {
    func testMeasuresDurableWritesOnSQLite() async throws {
        let directory = try TemporaryDirectory()
        let ledger = try await SQLiteLedger(path: directory.file("bench.sqlite"))
        let measurement = try await LedgerBenchmark.writesPerSecond(ledger: ledger, count: 40, concurrency: 4)
        XCTAssertEqual(measurement.writes, 80)
        XCTAssertEqual(measurement.concurrency, 4)
        XCTAssertGreaterThan(measurement.writesPerSecond, 0)
        print("ledger benchmark: \(measurement.ledger): \(Int(measurement.writesPerSecond)) writes/s (debug build)")
        XCTAssertEqual(measurement.ledger, "sqlite:" + directory.file("bench.sqlite"))
        let summary = try await ledger.summary()
        XCTAssertEqual(summary.succeeded, 40)
        XCTAssertEqual(summary.attempts, 40)
    }
}
