import DFULedger
import Foundation
import XCTest

/// Schema 2 on PostgreSQL: skipped attempts with their clock and version, claims that include
/// done devices, and a version 1 ledger (in a schema of its own, written with psql) migrated by
/// a station and read as it is by a report. Skipped without `DFUKIT_TEST_POSTGRES_URL`
/// (`make test-postgres` sets it).
final class PostgresSchemaTests: XCTestCase {
    private var text: String!

    override func setUpWithError() throws {
        guard let text = ProcessInfo.processInfo.environment["DFUKIT_TEST_POSTGRES_URL"], !text.isEmpty else {
            throw XCTSkip("set DFUKIT_TEST_POSTGRES_URL (make test-postgres starts a server)")
        }
        self.text = text
    }

    func testSkippedAttemptsKeepTheirClockAndVersionAndMarkTheDeviceDone() async throws {
        let ledger = try await LedgerURL(parsing: text).open()
        let package = LedgerFixtures.freshPackage()
        let claim = try await XCTUnwrapAsync(await ledger.claim(device: "PG-S", packageSHA256: package, station: "a"))
        let skipped = Attempt(claim: claim, profile: "telink-ota", startedAt: Date(timeIntervalSince1970: 1_714_550_400.5),
                              endedAt: Date(timeIntervalSince1970: 1_714_550_400.75), bytes: 0, result: .skipped,
                              clock: .simulated, deviceVersion: "1.1.0")
        try await ledger.recordAttempt(skipped)
        let read = try await ledger.attempts(AttemptFilter(packageSHA256: package))
        XCTAssertEqual(read, [skipped])
        let isDone = try await ledger.isDone(device: "PG-S", packageSHA256: package)
        XCTAssertTrue(isDone)
        let again = try await ledger.claim(device: "PG-S", packageSHA256: package, station: "b")
        XCTAssertNil(again)
        let reflash = try await ledger.claim(device: "PG-S", packageSHA256: package, station: "b", includingDone: true)
        XCTAssertEqual(reflash?.nextAttemptNumber, 2, "skip-done: false claims a done device again")
        let held = try await ledger.claim(device: "PG-S", packageSHA256: package, station: "c", includingDone: true)
        XCTAssertNil(held, "and holds it like any claim")
        await ledger.close()
    }

    func testAVersion1LedgerIsMigratedByAStationAndReadAsItIsByAReport() async throws {
        let schema = "dfukit_v1_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        _ = try Subprocess.tool("psql", [text, "-v", "ON_ERROR_STOP=1", "-q", "-c", """
            CREATE SCHEMA \(schema);
            SET search_path TO \(schema);
            CREATE TABLE dfukit_schema (version integer NOT NULL);
            INSERT INTO dfukit_schema VALUES (1);
            CREATE TABLE dfukit_claims (device text NOT NULL, package_sha256 text NOT NULL, claim_id text NOT NULL,
                station text NOT NULL, session text NOT NULL,
                state text NOT NULL CHECK (state IN ('active', 'released', 'done')),
                claimed_at timestamptz NOT NULL, heartbeat_at timestamptz NOT NULL, PRIMARY KEY (device, package_sha256));
            CREATE TABLE dfukit_attempts (id bigserial PRIMARY KEY, claim_id text NOT NULL, device text NOT NULL,
                serial text, package_sha256 text NOT NULL, profile text NOT NULL, station text NOT NULL,
                started_at timestamptz NOT NULL, ended_at timestamptz NOT NULL, bytes bigint NOT NULL,
                result text NOT NULL CHECK (result IN ('succeeded', 'failed', 'cancelled')), error_kind text,
                error_message text, attempt_number integer NOT NULL, seconds double precision NOT NULL,
                bytes_per_second double precision NOT NULL);
            INSERT INTO dfukit_claims VALUES ('D1', 'p', 'c1', 'old', 's', 'done', now(), now());
            INSERT INTO dfukit_attempts (claim_id, device, serial, package_sha256, profile, station, started_at, ended_at,
                bytes, result, error_kind, error_message, attempt_number, seconds, bytes_per_second)
                VALUES ('c1', 'D1', 'SN-1', 'p', 'vendor-ctrlpt', 'old', to_timestamp(50), to_timestamp(62), 1200,
                'succeeded', NULL, NULL, 1, 12, 100);
            """])
        let separator = text.contains("?") ? "&" : "?"
        let url = try LedgerURL(parsing: text + separator + "options=-csearch_path%3D" + schema)
        func version() throws -> String {
            try Subprocess.tool("psql", [text, "-tA", "-c", "SELECT version FROM \(schema).dfukit_schema"])
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }

        let reader = try await url.open(LedgerOptions(access: .existing))
        let report = try await BatchReport.load(from: reader)
        await reader.close()
        XCTAssertEqual(report.succeeded, 1)
        XCTAssertEqual(report.clock, .wall)
        XCTAssertEqual(try version(), "1", "a report changes nothing")

        let station = try await url.open()
        XCTAssertEqual(try version(), "5")
        let claim = try await XCTUnwrapAsync(await station.claim(device: "D2", packageSHA256: "p", station: "new"))
        try await station.recordAttempt(Attempt(claim: claim, profile: "vendor-ctrlpt", startedAt: LedgerFixtures.start,
                                                endedAt: LedgerFixtures.start, bytes: 0, result: .skipped,
                                                clock: .wall, deviceVersion: "2.0.0"))
        let attempts = try await station.attempts()
        XCTAssertEqual(attempts.map(\.result), [.succeeded, .skipped])
        XCTAssertEqual(attempts.map(\.deviceVersion), [nil, "2.0.0"])
        XCTAssertEqual(attempts.map(\.serial), ["SN-1", nil])
        await station.close()
        _ = try Subprocess.tool("psql", [text, "-q", "-c", "DROP SCHEMA \(schema) CASCADE"])
    }

    /// A version 4 ledger (attempts with a line, no radio, no station or live tables) migrated to
    /// 5 in one transaction by a station; a report reads it as it is before.
    func testAVersion4LedgerIsMigratedTo5() async throws {
        let schema = "dfukit_v4_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        _ = try Subprocess.tool("psql", [text, "-v", "ON_ERROR_STOP=1", "-q", "-c", """
            CREATE SCHEMA \(schema);
            SET search_path TO \(schema);
            CREATE TABLE dfukit_schema (version integer NOT NULL);
            INSERT INTO dfukit_schema VALUES (4);
            CREATE TABLE dfukit_claims (device text NOT NULL, package_sha256 text NOT NULL, claim_id text NOT NULL,
                station text NOT NULL, session text NOT NULL,
                state text NOT NULL CHECK (state IN ('active', 'released', 'done')),
                claimed_at timestamptz NOT NULL, heartbeat_at timestamptz NOT NULL, PRIMARY KEY (device, package_sha256));
            CREATE TABLE dfukit_attempts (id bigserial PRIMARY KEY, claim_id text NOT NULL, device text NOT NULL,
                serial text, package_sha256 text NOT NULL, profile text NOT NULL, station text NOT NULL,
                started_at timestamptz NOT NULL, ended_at timestamptz NOT NULL, bytes bigint NOT NULL,
                result text NOT NULL CHECK (result IN ('succeeded', 'failed', 'cancelled', 'skipped')), error_kind text,
                error_message text, attempt_number integer NOT NULL, seconds double precision NOT NULL,
                bytes_per_second double precision NOT NULL, clock text, device_version text, line text);
            CREATE TABLE dfukit_audit_records (attempt_id bigint PRIMARY KEY, record text NOT NULL, signature text NOT NULL,
                key_id text NOT NULL);
            CREATE TABLE dfukit_line_events (id bigserial PRIMARY KEY, line text, kind text NOT NULL, at timestamptz NOT NULL,
                station text, operator text, reason text, rule text, attempts text, device text, package_sha256 text,
                last_attempt_id bigint NOT NULL);
            INSERT INTO dfukit_claims VALUES ('D1', 'p', 'c1', 'old', 's', 'released', now(), now());
            INSERT INTO dfukit_attempts (claim_id, device, package_sha256, profile, station, started_at, ended_at,
                bytes, result, error_kind, attempt_number, seconds, bytes_per_second, clock, line)
                VALUES ('c1', 'D1', 'p', 'vendor-ctrlpt', 'old', to_timestamp(50), to_timestamp(62), 1200,
                'failed', 'timeout', 1, 12, 100, 'wall', 'L');
            """])
        let separator = text.contains("?") ? "&" : "?"
        let url = try LedgerURL(parsing: text + separator + "options=-csearch_path%3D" + schema)
        func psql(_ sql: String) throws -> String {
            try Subprocess.tool("psql", [text, "-tA", "-c", sql]).trimmingCharacters(in: .whitespacesAndNewlines)
        }

        let reader = try await url.open(LedgerOptions(access: .existing))
        let stations = try await reader.stations()
        XCTAssertEqual(stations, [], "a version 4 ledger has no stations")
        let read = try await reader.attempts()
        XCTAssertEqual(read.map(\.radio), [nil])
        await reader.close()
        XCTAssertEqual(try psql("SELECT version FROM \(schema).dfukit_schema"), "4")

        let station = try await url.open()
        XCTAssertEqual(try psql("SELECT version FROM \(schema).dfukit_schema"), "5")
        XCTAssertEqual(try psql("SELECT string_agg(table_name, ',' ORDER BY table_name) FROM information_schema.tables "
                                + "WHERE table_schema = '\(schema)' AND table_name IN ('dfukit_stations', 'dfukit_live')"),
                       "dfukit_live,dfukit_stations")
        let claim = try await XCTUnwrapAsync(await station.claim(device: "D1", packageSHA256: "p", station: "new"))
        XCTAssertEqual(claim.nextAttemptNumber, 2)
        var attempt = LedgerFixtures.attempt(claim, result: .succeeded)
        attempt.radio = "hci2"
        try await station.recordAttempt(attempt)
        let attempts = try await station.attempts()
        XCTAssertEqual(attempts.map(\.radio), [nil, "hci2"])
        XCTAssertEqual(attempts.map(\.line), ["L", nil])
        await station.close()
        _ = try Subprocess.tool("psql", [text, "-q", "-c", "DROP SCHEMA \(schema) CASCADE"])
    }
}
