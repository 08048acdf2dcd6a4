import DFUBytes
import DFULedger
import Foundation
import XCTest

/// Audit records on PostgreSQL: stored with their attempts, read back with them, a deleted one
/// reported missing.
extension PostgresLedgerTests {
    func testAuditRecordsAreStoredPerAttemptAndADeletedOneIsMissing() async throws {
        let key = try Ed25519PrivateKey.generate()
        let package = LedgerFixtures.freshPackage()
        let ledger = try await open()
        let devices = (0..<3).map { LedgerFixtures.device($0, prefix: "PG:00:0A") }
        let attempts = try await AuditFixtures.recordSignedLine(into: ledger, key: key, package: package, devices: devices)
        XCTAssertEqual(attempts.count, 4)
        let filter = AttemptFilter(packageSHA256: package)
        var entries = try await ledger.auditEntries(filter)
        XCTAssertEqual(entries.map(\.attempt), [1, 2, 1, 1])
        XCTAssertTrue(AuditVerification(entries: entries, key: key.publicKey).allVerified)
        XCTAssertEqual(entries.first?.record.flatMap { try? SignedAuditRecord(jsonLine: $0.jsonLine) }, entries.first?.record)

        // A retried record (its answer lost) adds neither an attempt nor a second audit row.
        let retried = attempts[3]
        try await ledger.recordAttempt(retried, audit: SignedAuditRecord(signing: AuditFixtures.record(for: retried), with: key))
        entries = try await ledger.auditEntries(filter)
        XCTAssertEqual(entries.count, 4)

        let text = try XCTUnwrap(ProcessInfo.processInfo.environment["DFUKIT_TEST_POSTGRES_URL"])
        _ = try Subprocess.tool("psql", [text, "-v", "ON_ERROR_STOP=1", "-q", "-c", """
            DELETE FROM dfukit_audit_records WHERE attempt_id = (SELECT min(id) FROM dfukit_attempts
                WHERE package_sha256 = '\(package)' AND attempt_number = 2)
            """])
        entries = try await ledger.auditEntries(filter)
        let verification = AuditVerification(entries: entries, key: key.publicKey)
        XCTAssertEqual(verification.failures.map { "\($0.device ?? "") \($0.attempt ?? 0) \($0.reason.name)" },
                       ["PG:00:0A:00:00:00 2 missing"])
        let other = AuditVerification(entries: entries, key: try Ed25519PrivateKey.generate().publicKey)
        XCTAssertEqual(other.failures.map(\.reason.name), ["other-key", "missing", "other-key", "other-key"])
        await ledger.close()
    }
}
