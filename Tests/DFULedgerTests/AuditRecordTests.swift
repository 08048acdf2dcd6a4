import DFUBytes
import DFULedger
import Foundation
import XCTest

/// Audit records: canonical bytes, signing and verifying, stored one per attempt in the ledger
/// (schema 3), exported as JSON Lines; tampering, a deleted record and another key are caught.
final class AuditRecordTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private let key = try! Ed25519PrivateKey.generate()

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        directory = nil
    }

    private func sample() -> AuditRecord {
        var record = AuditRecord(address: "C0:FF:EE:00:00:01", profile: "vendor-ctrlpt", packageSHA256: "ab",
                                 images: [.init(name: "application", version: "1.2.0", sha256: "cd")], result: "succeeded",
                                 attempt: 2, claimID: "claim-1", station: "line-1",
                                 startedAt: Date(timeIntervalSince1970: 1_714_550_400.125),
                                 endedAt: Date(timeIntervalSince1970: 1_714_550_412.5), seconds: 12.375, clock: "wall")
        record.operatorName = "ada"
        record.deviceHolds = ["confirmed"]
        return record
    }

    func testCanonicalJSONHasSortedKeysNoWhitespaceAndTheFormat() {
        let text = sample().canonicalJSON
        XCTAssertTrue(text.hasPrefix("{\"address\":\"C0:FF:EE:00:00:01\",\"attempt\":2,\"bytes\":0,\"claim_id\":\"claim-1\","
                                     + "\"clock\":\"wall\",\"device_holds\":[\"confirmed\"],\"ended_at\":\"2024-05-01T08:00:12.500Z\","),
                      text)
        XCTAssertTrue(text.contains("\"format\":\"dfukit-audit\""), text)
        XCTAssertTrue(text.hasSuffix("\"version\":1,\"version_after\":null,\"version_before\":null}"), text)
        XCTAssertTrue(text.contains("\"images\":[{\"name\":\"application\",\"sha256\":\"cd\",\"version\":\"1.2.0\"}]"), text)
        XCTAssertTrue(text.contains("\"started_at\":\"2024-05-01T08:00:00.125Z\""), text)
        XCTAssertFalse(text.contains(" ") && !text.contains("\" "), "no whitespace between tokens")
        XCTAssertEqual(text, sample().canonicalJSON, "the same record gives the same bytes")
    }

    func testSignedRecordVerifiesAndAnyChangedByteFailsNamingTheRecord() throws {
        let signed = SignedAuditRecord(signing: sample(), with: key)
        XCTAssertEqual(signed.keyID, key.publicKey.keyID)
        XCTAssertNil(signed.problem(verifyingWith: key.publicKey))
        let line = signed.jsonLine
        XCTAssertEqual(try SignedAuditRecord(jsonLine: line), signed, "the export line reads back byte for byte")
        XCTAssertTrue(AuditVerification(lines: [line], key: key.publicKey).allVerified)

        let bytes = Array(signed.canonicalJSON.utf8)
        for index in bytes.indices {
            var changed = bytes
            changed[index] = changed[index] == UInt8(ascii: "1") ? UInt8(ascii: "2") : UInt8(ascii: "1")
            let tampered = SignedAuditRecord(canonicalJSON: String(decoding: changed, as: UTF8.self),
                                             signature: signed.signature, keyID: signed.keyID)
            let entry = AuditEntry(device: "C0:FF:EE:00:00:01", attempt: 2, station: "line-1", startedAt: Date(),
                                   record: tampered)
            let verification = AuditVerification(entries: [entry], key: key.publicKey)
            XCTAssertEqual(verification.failures.count, 1, "byte \(index)")
            let failure = try XCTUnwrap(verification.failures.first)
            XCTAssertEqual(failure.reason.name, "bad-signature", "byte \(index)")
            XCTAssertTrue(failure.description.hasPrefix("device C0:FF:EE:00:00:01, attempt 2, station line-1: bad-signature"),
                          failure.description)
        }
    }

    func testAnotherKeysRecordFailsAsSignedByAnotherKey() throws {
        let other = try Ed25519PrivateKey.generate()
        let signed = SignedAuditRecord(signing: sample(), with: other)
        let reason = try XCTUnwrap(signed.problem(verifyingWith: key.publicKey))
        XCTAssertEqual(reason.name, "other-key")
        let verification = AuditVerification(lines: ["", signed.jsonLine], key: key.publicKey)
        XCTAssertEqual(verification.checked, 1)
        XCTAssertEqual(verification.failures.first?.description.hasPrefix("line 2, device C0:FF:EE:00:00:01, attempt 2"), true)
        // A record signed by the right key but moved under another attempt names the mismatch.
        let moved = AuditEntry(device: "C0:FF:EE:00:00:09", attempt: 1, station: "line-1", startedAt: Date(),
                               record: SignedAuditRecord(signing: sample(), with: key))
        XCTAssertEqual(AuditVerification(entries: [moved], key: key.publicKey).failures.first?.reason.name, "malformed")
        XCTAssertEqual(AuditVerification(lines: ["{\"record\":{}}"], key: key.publicKey).failures.first?.reason.name,
                       "malformed")
    }

    func testTheLedgerKeepsOneRecordPerAttemptAndADeletedOneIsMissing() async throws {
        let path = directory.file("ledger.sqlite")
        let ledger = try await SQLiteLedger(path: path)
        let devices = (1...3).map { LedgerFixtures.device($0) }
        let attempts = try await AuditFixtures.recordSignedLine(into: ledger, key: key, package: LedgerFixtures.package,
                                                                devices: devices)
        XCTAssertEqual(attempts.count, 4)
        // An attempt recorded without a key has no record.
        let claim = try await XCTUnwrapAsync(await ledger.claim(device: "C0:FF:EE:00:00:09",
                                                                packageSHA256: LedgerFixtures.package, station: "line-1"))
        try await ledger.recordAttempt(LedgerFixtures.attempt(claim, result: .succeeded, offset: 200))
        var entries = try await ledger.auditEntries(.all)
        XCTAssertEqual(entries.map(\.attempt), [1, 2, 1, 1, 1])
        var verification = AuditVerification(entries: entries, key: key.publicKey)
        XCTAssertEqual(verification.checked, 5)
        XCTAssertEqual(verification.failures.map(\.description),
                       ["device C0:FF:EE:00:00:09, attempt 1, station line-1: missing: the ledger has this attempt but no "
                        + "audit record for it"])
        await ledger.close()

        _ = try Subprocess.tool("python3", ["-c", "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); "
                                            + "db.execute('DELETE FROM dfukit_audit_records WHERE attempt_id = 2'); db.commit()", path])
        let reader = try await SQLiteLedger(path: path, options: LedgerOptions(access: .existing))
        entries = try await reader.auditEntries(AttemptFilter(station: "line-1"))
        verification = AuditVerification(entries: entries, key: key.publicKey)
        XCTAssertEqual(verification.failures.map { "\($0.device ?? "") \($0.attempt ?? 0) \($0.reason.name)" },
                       ["C0:FF:EE:00:00:01 2 missing", "C0:FF:EE:00:00:09 1 missing"])
        let since = try await reader.auditEntries(AttemptFilter(since: LedgerFixtures.start.addingTimeInterval(30)))
        XCTAssertEqual(since.count, 3)
        await reader.close()
    }

    func testAVersion2LedgerOpensForReportsAndIsMigratedByAStation() async throws {
        let path = directory.file("v2.sqlite")
        let ledger = try await SQLiteLedger(path: path)
        try await LedgerFixtures.flashOnce(ledger, device: "D1", package: LedgerFixtures.package, station: "old")
        await ledger.close()
        _ = try Subprocess.tool("python3", ["-c", "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); "
                                            + "db.execute('DROP TABLE dfukit_audit_records'); "
                                            + "db.execute('UPDATE dfukit_schema SET version = 2'); db.commit()", path])
        let reader = try await SQLiteLedger(path: path, options: LedgerOptions(access: .existing))
        let entries = try await reader.auditEntries(.all)
        XCTAssertEqual(entries.map(\.device), ["D1"])
        XCTAssertNil(entries.first?.record, "a version 2 ledger has no audit records")
        let report = try await BatchReport.load(from: reader)
        XCTAssertEqual(report.succeeded, 1)
        await reader.close()

        let station = try await SQLiteLedger(path: path)
        try await AuditFixtures.recordSignedLine(into: station, key: key, package: LedgerFixtures.package, devices: ["D2"],
                                                 station: "new")
        let migrated = try await station.auditEntries(.all)
        XCTAssertEqual(migrated.map { $0.record != nil }, [false, true, true])
        let version = try Subprocess.tool("python3", ["-c", "import sqlite3, sys; print(sqlite3.connect(sys.argv[1])"
                                                      + ".execute('SELECT version FROM dfukit_schema').fetchone()[0])", path])
        XCTAssertEqual(version.trimmingCharacters(in: .whitespacesAndNewlines), "5")
        await station.close()
    }
}
