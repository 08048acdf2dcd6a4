import DFULedger
import Foundation
import XCTest

/// Schema 2 (the `skipped` result, `clock`, `device_version`): a station migrates a version 1
/// ledger when it opens it; a report reads one as it is. Skipped attempts mark devices done,
/// and `includingDone` claims a done device again.
final class LedgerSchemaMigrationTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        directory = nil
    }

    /// The tables a DFUKit of schema version 1 wrote, with one succeeded and one failed attempt.
    private func writeVersion1Ledger(_ path: String) throws {
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.executescript('''
            CREATE TABLE dfukit_schema (version INTEGER NOT NULL);
            INSERT INTO dfukit_schema VALUES (1);
            CREATE TABLE dfukit_claims (device TEXT NOT NULL, package_sha256 TEXT NOT NULL, claim_id TEXT NOT NULL,
                station TEXT NOT NULL, session TEXT NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('active', 'released', 'done')),
                claimed_at REAL NOT NULL, heartbeat_at REAL NOT NULL, PRIMARY KEY (device, package_sha256));
            CREATE TABLE dfukit_attempts (id INTEGER PRIMARY KEY AUTOINCREMENT, claim_id TEXT NOT NULL,
                device TEXT NOT NULL, serial TEXT, package_sha256 TEXT NOT NULL, profile TEXT NOT NULL,
                station TEXT NOT NULL, started_at REAL NOT NULL, ended_at REAL NOT NULL, bytes INTEGER NOT NULL,
                result TEXT NOT NULL CHECK (result IN ('succeeded', 'failed', 'cancelled')), error_kind TEXT,
                error_message TEXT, attempt_number INTEGER NOT NULL, seconds REAL NOT NULL,
                bytes_per_second REAL NOT NULL);
            CREATE INDEX dfukit_attempts_by_device ON dfukit_attempts (device, package_sha256);
            INSERT INTO dfukit_claims VALUES ('D1', 'p', 'c1', 'old', 's', 'done', 100, 100);
            INSERT INTO dfukit_attempts VALUES (1, 'c0', 'D1', NULL, 'p', 'vendor-ctrlpt', 'old', 10, 40, 0, 'failed',
                'timeout', 'no answer', 1, 30, 0);
            INSERT INTO dfukit_attempts VALUES (2, 'c1', 'D1', 'SN-1', 'p', 'vendor-ctrlpt', 'old', 50, 62, 1200,
                'succeeded', NULL, NULL, 2, 12, 100);
            ''')
            db.commit()
            """
        _ = try Subprocess.tool("python3", ["-c", script, path])
    }

    private func schemaVersion(_ path: String) throws -> String {
        try Subprocess.tool("python3", ["-c", "import sqlite3, sys; print(sqlite3.connect(sys.argv[1])"
                                        + ".execute('SELECT version FROM dfukit_schema').fetchone()[0])", path])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testAReportReadsAVersion1LedgerWithoutChangingIt() async throws {
        let path = directory.file("v1.sqlite")
        try writeVersion1Ledger(path)
        let ledger = try await SQLiteLedger(path: path, options: LedgerOptions(access: .existing))
        let report = try await BatchReport.load(from: ledger)
        await ledger.close()
        XCTAssertEqual(report.devices, 1)
        XCTAssertEqual(report.succeeded, 1)
        XCTAssertEqual(report.rows.first?.totalSeconds, 42)
        XCTAssertEqual(report.clock, .wall, "no clock recorded: read as the wall clock, as before")
        XCTAssertEqual(try schemaVersion(path), "1")
    }

    func testAStationMigratesAVersion1LedgerAndKeepsEveryAttempt() async throws {
        let path = directory.file("v1.sqlite")
        try writeVersion1Ledger(path)
        let ledger = try await SQLiteLedger(path: path)
        XCTAssertEqual(try schemaVersion(path), "5")
        var attempts = try await ledger.attempts()
        XCTAssertEqual(attempts.map(\.result), [.failed, .succeeded])
        XCTAssertEqual(attempts.map(\.serial), [nil, "SN-1"])
        XCTAssertEqual(attempts.map(\.clock), [nil, nil])
        let isDone = try await ledger.isDone(device: "D1", packageSHA256: "p")
        XCTAssertTrue(isDone, "the claims are kept")

        // A skipped attempt with its clock and version, which version 1 could not hold.
        let claim = try await XCTUnwrapAsync(await ledger.claim(device: "D2", packageSHA256: "p", station: "new"))
        try await ledger.recordAttempt(Attempt(claim: claim, profile: "vendor-ctrlpt", startedAt: LedgerFixtures.start,
                                               endedAt: LedgerFixtures.start.addingTimeInterval(0.2), bytes: 0,
                                               result: .skipped, clock: .simulated, deviceVersion: "1.1.0"))
        attempts = try await ledger.attempts()
        XCTAssertEqual(attempts.last?.result, .skipped)
        XCTAssertEqual(attempts.last?.clock, .simulated)
        XCTAssertEqual(attempts.last?.deviceVersion, "1.1.0")
        let skippedIsDone = try await ledger.isDone(device: "D2", packageSHA256: "p")
        XCTAssertTrue(skippedIsDone, "a device skipped as running the target is done")
        await ledger.close()

        let integrity = try await SQLiteLedger(path: path).integrityCheck()
        XCTAssertEqual(integrity, ["ok"])
    }

    func testIncludingDoneClaimsADoneDeviceAgain() async throws {
        let ledger = try await SQLiteLedger(path: directory.file("ledger.sqlite"))
        let package = LedgerFixtures.package
        try await LedgerFixtures.flashOnce(ledger, device: "D1", package: package, station: "a")
        let skipping = try await ledger.claim(device: "D1", packageSHA256: package, station: "a")
        XCTAssertNil(skipping)
        let again = try await XCTUnwrapAsync(await ledger.claim(device: "D1", packageSHA256: package, station: "a",
                                                                includingDone: true))
        XCTAssertEqual(again.nextAttemptNumber, 2)
        let held = try await ledger.claim(device: "D1", packageSHA256: package, station: "b", includingDone: true)
        XCTAssertNil(held, "claimed again, it is held like any claim")
        try await ledger.recordAttempt(LedgerFixtures.attempt(again, result: .failed, offset: 60, errorKind: "timeout"))
        try await ledger.release(again)
        let summary = try await ledger.summary()
        XCTAssertEqual(summary.failed, 1, "the device was flashed again and that failed: it is failed now")
        XCTAssertEqual(summary.succeeded, 0)
        await ledger.close()
    }
}
