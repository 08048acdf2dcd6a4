@testable import DFULedger
import Foundation
import XCTest

/// The PostgreSQL ledger when its connection is cut between calls, as a server restart or an
/// administrator's `pg_terminate_backend` does: the next call reconnects and goes on, and a call
/// repeated after an unknown outcome writes nothing twice. Runs in `make test-postgres`
/// (`PostgresLedgerTests.setUpWithError` skips them, never passes them, without `DFUKIT_TEST_POSTGRES_URL`).
extension PostgresLedgerTests {
    /// The server's URL (set: `setUpWithError` skipped the test otherwise).
    private var text: String { ProcessInfo.processInfo.environment["DFUKIT_TEST_POSTGRES_URL"] ?? "" }

    /// A second connection that ends the backends of one application name and waits until they are gone.
    private final class Administrator {
        let connection: PostgresConnection
        let application: String

        init(_ text: String, application: String) throws {
            connection = try PostgresConnection(connectionString: text, location: "administrator")
            self.application = application
        }

        /// Terminates the ledger's backend; returns how many were terminated.
        func terminate() throws -> Int {
            let rows = try connection.query(
                "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1",
                [application], operation: "terminate the ledger's backend")
            let count = rows.first?.first.flatMap { $0 }.flatMap { Int($0) } ?? 0
            // pg_terminate_backend only signals: wait until the backend has exited.
            for _ in 0..<200 {
                let left = try connection.query("SELECT count(*) FROM pg_stat_activity WHERE application_name = $1",
                                                [application], operation: "count the ledger's backends")
                if left.first?.first == "0" { break }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return count
        }
    }

    func testLedgerReconnectsAfterItsBackendIsTerminatedAndARetriedRecordAddsNoRow() async throws {
        let application = "dfukit-test-\(UUID().uuidString.prefix(8))"
        let separator = text.contains("?") ? "&" : "?"
        let ledger = try await LedgerURL(parsing: text + separator + "application_name=\(application)").open()
        let administrator = try Administrator(text, application: application)
        let package = LedgerFixtures.freshPackage()
        let device = LedgerFixtures.device(1, prefix: "PG:00:0A")

        XCTAssertEqual(try administrator.terminate(), 1, "the ledger's connection was live")
        let claimed = try await ledger.claim(device: device, packageSHA256: package, station: "line-1")
        let claim = try XCTUnwrap(claimed, "the claim after a terminated backend went through")

        XCTAssertEqual(try administrator.terminate(), 1, "the ledger had reconnected")
        try await ledger.heartbeat(claim)

        XCTAssertEqual(try administrator.terminate(), 1)
        let attempt = Attempt(claim: claim, profile: "vendor-ctrlpt", startedAt: Date(), endedAt: Date(), bytes: 8_000,
                              result: .succeeded)
        try await ledger.recordAttempt(attempt)

        // The runner repeats a record whose answer it did not get; the ledger keeps one row.
        XCTAssertEqual(try administrator.terminate(), 1)
        try await ledger.recordAttempt(attempt)
        let attempts = try await ledger.attempts(AttemptFilter(packageSHA256: package))
        XCTAssertEqual(attempts.count, 1, "a repeated record added a row: \(attempts)")
        XCTAssertEqual(attempts.first?.result, .succeeded)

        XCTAssertEqual(try administrator.terminate(), 1)
        let done = try await ledger.isDone(device: device, packageSHA256: package)
        XCTAssertTrue(done)
        await ledger.close()
    }

    /// A claim repeated with its own id (a retry after a commit whose answer was lost) finds its own
    /// row instead of locking its station out until the lease runs out.
    func testAClaimRepeatedWithItsIdFindsItsOwnRow() async throws {
        let ledger = try await LedgerURL(parsing: text).open()
        let package = LedgerFixtures.freshPackage()
        let device = LedgerFixtures.device(2, prefix: "PG:00:0A")
        let first = try await ledger.claim(device: device, packageSHA256: package, station: "line-1", id: "claim-one")
        XCTAssertNotNil(first)
        let again = try await ledger.claim(device: device, packageSHA256: package, station: "line-1", id: "claim-one")
        XCTAssertEqual(again?.id, "claim-one")
        let other = try await ledger.claim(device: device, packageSHA256: package, station: "line-1", id: "claim-two")
        XCTAssertNil(other, "another claim is still refused while the first is active")
        await ledger.close()
    }
}
