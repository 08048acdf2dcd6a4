import DFULedger
import Foundation
import XCTest

/// Schema 5 in SQLite: a version 4 ledger migrated (attempts kept, `radio` added, the station
/// and live tables made), live rows upserted and cleared (by `clearLive`, by the attempt's record
/// and by a release, only the writer's session's), station rows upserted by session.
final class LedgerLiveRowsTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        directory = nil
    }

    private func query(_ path: String, _ sql: String) throws -> String {
        try Subprocess.tool("python3", ["-c", """
            import sqlite3, sys
            for row in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]): print('|'.join(str(v) for v in row))
            """, path, sql]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The tables a DFUKit of schema version 4 wrote, with one failed attempt on line L.
    private func writeVersion4Ledger(_ path: String) throws {
        _ = try Subprocess.tool("python3", ["-c", """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.executescript('''
            CREATE TABLE dfukit_schema (version INTEGER NOT NULL);
            INSERT INTO dfukit_schema VALUES (4);
            CREATE TABLE dfukit_claims (device TEXT NOT NULL, package_sha256 TEXT NOT NULL, claim_id TEXT NOT NULL,
                station TEXT NOT NULL, session TEXT NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('active', 'released', 'done')), claimed_at REAL NOT NULL,
                heartbeat_at REAL NOT NULL, PRIMARY KEY (device, package_sha256));
            CREATE TABLE dfukit_attempts (id INTEGER PRIMARY KEY AUTOINCREMENT, claim_id TEXT NOT NULL, device TEXT NOT NULL,
                serial TEXT, package_sha256 TEXT NOT NULL, profile TEXT NOT NULL, station TEXT NOT NULL,
                started_at REAL NOT NULL, ended_at REAL NOT NULL, bytes INTEGER NOT NULL,
                result TEXT NOT NULL CHECK (result IN ('succeeded', 'failed', 'cancelled', 'skipped')),
                error_kind TEXT, error_message TEXT, attempt_number INTEGER NOT NULL, seconds REAL NOT NULL,
                bytes_per_second REAL NOT NULL, clock TEXT CHECK (clock IN ('wall', 'simulated')), device_version TEXT,
                line TEXT);
            CREATE INDEX dfukit_attempts_by_device ON dfukit_attempts (device, package_sha256);
            CREATE INDEX dfukit_attempts_by_line ON dfukit_attempts (line, id);
            CREATE TABLE dfukit_audit_records (attempt_id INTEGER PRIMARY KEY, record TEXT NOT NULL,
                signature TEXT NOT NULL, key_id TEXT NOT NULL);
            CREATE TABLE dfukit_line_events (id INTEGER PRIMARY KEY AUTOINCREMENT, line TEXT,
                kind TEXT NOT NULL CHECK (kind IN ('halted', 'resumed', 'quarantined', 'released')), at REAL NOT NULL,
                station TEXT, operator TEXT, reason TEXT, rule TEXT, attempts TEXT, device TEXT, package_sha256 TEXT,
                last_attempt_id INTEGER NOT NULL);
            INSERT INTO dfukit_claims VALUES ('D1', 'p', 'c1', 'old', 's', 'released', 50, 62);
            INSERT INTO dfukit_attempts (claim_id, device, package_sha256, profile, station, started_at, ended_at, bytes,
                result, error_kind, attempt_number, seconds, bytes_per_second, clock, line)
                VALUES ('c1', 'D1', 'p', 'vendor-ctrlpt', 'old', 50, 62, 1200, 'failed', 'timeout', 1, 12, 100, 'wall', 'L');
            ''')
            db.commit()
            """, path])
    }

    func testAVersion4LedgerIsReadAsItIsAndMigratedTo5() async throws {
        let path = directory.file("v4.sqlite")
        try writeVersion4Ledger(path)
        let reader = try await SQLiteLedger(path: path, options: LedgerOptions(access: .existing))
        let noStations = try await reader.stations()
        let noLive = try await reader.liveDevices()
        XCTAssertEqual(noStations, [])
        XCTAssertEqual(noLive, [])
        let read = try await reader.attempts()
        XCTAssertEqual(read.map(\.radio), [nil])
        await reader.close()
        XCTAssertEqual(try query(path, "SELECT version FROM dfukit_schema"), "4", "a reader changes nothing")

        let station = try await SQLiteLedger(path: path)
        XCTAssertEqual(try query(path, "SELECT version FROM dfukit_schema"), "5")
        XCTAssertEqual(try query(path, "SELECT name FROM sqlite_master WHERE name IN ('dfukit_stations', 'dfukit_live') ORDER BY name"),
                       "dfukit_live\ndfukit_stations")
        var attempts = try await station.attempts()
        XCTAssertEqual(attempts.map(\.line), ["L"])
        XCTAssertEqual(attempts.map(\.radio), [nil])
        XCTAssertEqual(attempts.map(\.errorKind), ["timeout"])

        let claim = try await XCTUnwrapAsync(await station.claim(device: "D1", packageSHA256: "p", station: "new"))
        XCTAssertEqual(claim.nextAttemptNumber, 2)
        var attempt = LedgerFixtures.attempt(claim, result: .succeeded)
        attempt.radio = "hci1"
        try await station.recordAttempt(attempt)
        attempts = try await station.attempts()
        XCTAssertEqual(attempts.map(\.radio), [nil, "hci1"])
        await station.close()
        let again = try await SQLiteLedger(path: path)
        let integrity = try await again.integrityCheck()
        XCTAssertEqual(integrity, ["ok"])
        await again.close()
    }

    func testLiveRowsAreUpsertedAndClearedByClearRecordAndRelease() async throws {
        let clock = TestClock()
        let path = directory.file("ledger.sqlite")
        let ledger = try await SQLiteLedger(path: path, options: LedgerOptions(clock: clock.ledgerClock))
        let other = try await SQLiteLedger(path: path, options: LedgerOptions(clock: clock.ledgerClock,
                                                                               session: LedgerFixtures.endedProcessSession()))
        let package = LedgerFixtures.package
        let session = ledger.session.text
        let claim = try await XCTUnwrapAsync(await ledger.claim(device: "D1", packageSHA256: package, station: "st-1"))
        let started = clock.now
        var row = LiveDevice(device: "D1", packageSHA256: package, station: "st-1", session: session, line: "L",
                             attempt: 1, phase: "connecting", startedAt: started)
        try await ledger.publishLive(row)
        clock.advance(seconds: 1.5)
        row.phase = "transfer"
        row.done = 12_288
        row.total = 65_536
        row.bytesPerSecond = 8123.4
        row.rssi = -48
        row.phy = "2M"
        row.mtu = 247
        row.radio = "hci0"
        try await ledger.publishLive(row)
        // Another session's row of the same device (a station that was killed mid-attempt).
        try await other.publishLive(LiveDevice(device: "D1", packageSHA256: package, station: "st-0",
                                               session: other.session.text, attempt: 1, phase: "transfer",
                                               startedAt: started))
        var live = try await ledger.liveDevices()
        XCTAssertEqual(live.count, 2)
        let mine = try XCTUnwrap(live.first { $0.session == session })
        var expected = row
        expected.updatedAt = clock.now
        XCTAssertEqual(mine, expected, "one row per device, package and session, replaced, stamped by the ledger's clock")

        try await ledger.clearLive(device: "D1", packageSHA256: package, session: session)
        live = try await ledger.liveDevices()
        XCTAssertEqual(live.map(\.station), ["st-0"])

        try await ledger.publishLive(row)
        try await ledger.recordAttempt(LedgerFixtures.attempt(claim, result: .failed, errorKind: "timeout"))
        live = try await ledger.liveDevices()
        XCTAssertEqual(live.map(\.station), ["st-0"], "the record cleared its own session's row only")

        try await ledger.publishLive(row)
        try await ledger.release(claim)
        live = try await ledger.liveDevices()
        XCTAssertEqual(live.map(\.station), ["st-0"], "the release cleared it too")

        do {
            try await ledger.publishLive(LiveDevice(device: " ", packageSHA256: package, station: "st-1", session: session,
                                                    attempt: 1, phase: "x", startedAt: started))
            XCTFail("a row without a device address was written")
        } catch {
            XCTAssertEqual(error.kind, .invalidArgument)
        }
        await other.close()
        await ledger.close()
    }

    func testStationsAreUpsertedBySessionAndKeepTheirStart() async throws {
        let clock = TestClock()
        let path = directory.file("ledger.sqlite")
        let ledger = try await SQLiteLedger(path: path, options: LedgerOptions(clock: clock.ledgerClock))
        let started = clock.now
        var status = StationStatus(station: "st-1", session: ledger.session, line: "L", radios: ["hci0", "hci1"],
                                   state: .running, startedAt: started)
        try await ledger.announceStation(status)
        clock.advance(seconds: 5)
        status.state = .halted
        status.startedAt = clock.now
        try await ledger.announceStation(status)
        let second = LedgerFixtures.endedProcessSession()
        try await ledger.announceStation(StationStatus(station: "st-2", session: second, line: nil, state: .ended,
                                                       startedAt: clock.now))
        let stations = try await ledger.stations()
        XCTAssertEqual(stations.map(\.station), ["st-1", "st-2"])
        XCTAssertEqual(stations[0], StationStatus(station: "st-1", session: ledger.session.text, host: ledger.session.host,
                                                  pid: Int(getpid()), line: "L", radios: ["hci0", "hci1"], state: .halted,
                                                  startedAt: started, seenAt: clock.now))
        XCTAssertEqual(stations[1].state, .ended)
        XCTAssertEqual(stations[1].radios, [])
        XCTAssertEqual(stations[1].session, second.text)
        XCTAssertEqual(try query(path, "SELECT count(*), group_concat(radios) FROM dfukit_stations WHERE station = 'st-1'"),
                       "1|hci0\nhci1")
        await ledger.close()
    }
}
