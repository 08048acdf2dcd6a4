import Foundation
import XCTest

/// `dfukit station keygen`, `batch run --audit-key`, `station audit export` and `station audit
/// verify` as a station runs them: the built binary on a simulated fleet with a SQLite ledger.
final class StationAuditCommandTests: XCTestCase {
    /// A key pair, a package and a line of three devices run with `--audit-key`.
    private func signedLine(in directory: TemporaryDirectory) throws -> (ledger: String, keyID: String) {
        let keygen = try DFUKitBinary.run(["station", "keygen", "--out", "station.key"], in: directory.path)
        XCTAssertEqual(keygen.status, 0, keygen.transcript)
        let mode = try FileManager.default.attributesOfItem(atPath: directory.file("station.key"))[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory.file("station.pub")))
        let again = try DFUKitBinary.run(["station", "keygen", "--out", "station.key"], in: directory.path)
        XCTAssertEqual(again.status, 64, "a station key is never overwritten: " + again.transcript)

        let package = try PackageCommandTests.makePackage(in: directory, size: 8_000)
        let ledger = "sqlite:" + directory.file("line.sqlite")
        let run = try DFUKitBinary.run(["batch", "run", "--profile", DFUKitBinary.shippedProfile, "--package", package,
                                        "--device", "sim:vendor-ctrlpt?fleet=3", "--ledger", ledger, "--station", "line-1",
                                        "--audit-key", "station.key", "--operator", "ada"], in: directory.path)
        XCTAssertEqual(run.status, 0, run.transcript)
        let keyID = String(keygen.stdout.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst("key id ".count))
        return (ledger, keyID)
    }

    func testASignedLineExportsAndVerifiesAndAnEditedLineFails() throws {
        let directory = try TemporaryDirectory()
        let (ledger, keyID) = try signedLine(in: directory)

        let export = try DFUKitBinary.run(["station", "audit", "export", "--ledger", ledger], in: directory.path)
        XCTAssertEqual(export.status, 0, export.transcript)
        let lines = export.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, export.stdout)
        let first = try jsonObject(lines[0])
        XCTAssertEqual(first["key_id"] as? String, keyID)
        let record = try XCTUnwrap(first["record"] as? [String: Any])
        XCTAssertEqual(record["format"] as? String, "dfukit-audit")
        XCTAssertEqual(record["version"] as? Int, 1)
        XCTAssertEqual(record["address"] as? String, "C0:FF:EE:00:00:01")
        XCTAssertEqual(record["operator"] as? String, "ada")
        XCTAssertEqual(record["station"] as? String, "line-1")
        XCTAssertEqual(record["result"] as? String, "succeeded")
        XCTAssertEqual(record["device_holds"] as? [String], ["installed"])
        XCTAssertNotNil(record["evidence"] as? String)
        XCTAssertEqual((record["link"] as? [String: Any])?["mtu"] as? Int, 247)
        XCTAssertEqual(((record["images"] as? [[String: Any]])?.first?["sha256"] as? String)?.count, 64)
        XCTAssertEqual((record["package_sha256"] as? String)?.count, 64)
        let file = try directory.write("audit.jsonl", text: export.stdout)

        // openssl verifies a record's signature over its exact bytes too.
        let line = lines[0]
        let recordText = String(line.dropFirst("{\"record\":".count))
        let canonical = String(recordText[..<recordText.range(of: ",\"signature\":", options: .backwards)!.lowerBound])
        try Data(canonical.utf8).write(to: URL(fileURLWithPath: directory.file("record.json")))
        try Data(base64Encoded: try XCTUnwrap(first["signature"] as? String))!
            .write(to: URL(fileURLWithPath: directory.file("record.sig")))
        let openssl = try Subprocess.tool("openssl", ["pkeyutl", "-verify", "-rawin", "-pubin", "-inkey",
                                                      directory.file("station.pub"), "-in", directory.file("record.json"),
                                                      "-sigfile", directory.file("record.sig")])
        XCTAssertTrue(openssl.contains("Signature Verified Successfully"), openssl)

        for source in [["--ledger", ledger], [file]] {
            let verify = try DFUKitBinary.run(["station", "audit", "verify", "--key", "station.pub"] + source,
                                              in: directory.path)
            XCTAssertEqual(verify.status, 0, verify.transcript)
            XCTAssertTrue(verify.stdout.contains(": 3 verified, 0 not verified, 0 missing"), verify.stdout)
        }

        // One edited byte in one line: that record, named, fails; exit 65.
        let edited = export.stdout.replacingOccurrences(of: "\"operator\":\"ada\",\"package_sha256\"",
                                                        with: "\"operator\":\"adb\",\"package_sha256\"")
        let editedLines = edited.split(separator: "\n")
        let tampered = try directory.write("tampered.jsonl",
                                           text: ([String(editedLines[0])] + lines.dropFirst()).joined(separator: "\n") + "\n")
        let verify = try DFUKitBinary.run(["station", "audit", "verify", "--key", "station.pub", tampered], in: directory.path)
        XCTAssertEqual(verify.status, 65, verify.transcript)
        XCTAssertTrue(verify.stdout.contains("line 1, device C0:FF:EE:00:00:01, attempt 1, station line-1: bad-signature"),
                      verify.stdout)
        XCTAssertTrue(verify.stdout.contains("tampered.jsonl: 2 verified, 1 not verified, 0 missing"),
                      verify.stdout)
    }

    func testADeletedRecordIsMissingAndAnotherKeyFails() throws {
        let directory = try TemporaryDirectory()
        let (ledger, _) = try signedLine(in: directory)
        _ = try Subprocess.tool("python3", ["-c", "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); "
                                            + "db.execute('DELETE FROM dfukit_audit_records WHERE attempt_id = 2'); db.commit()",
                                            directory.file("line.sqlite")])
        let verify = try DFUKitBinary.run(["station", "audit", "verify", "--key", "station.pub", "--ledger", ledger],
                                          in: directory.path)
        XCTAssertEqual(verify.status, 65, verify.transcript)
        XCTAssertTrue(verify.stdout.contains("device C0:FF:EE:00:00:02, attempt 1, station line-1: missing"), verify.stdout)
        XCTAssertTrue(verify.stdout.contains("2 verified, 0 not verified, 1 missing"), verify.stdout)

        let other = try DFUKitBinary.run(["station", "keygen", "--out", "other.key"], in: directory.path)
        XCTAssertEqual(other.status, 0, other.transcript)
        let wrong = try DFUKitBinary.run(["station", "audit", "verify", "--key", "other.pub", "--ledger", ledger],
                                         in: directory.path)
        XCTAssertEqual(wrong.status, 65, wrong.transcript)
        XCTAssertTrue(wrong.stdout.contains("other-key: signed by key"), wrong.stdout)
    }

    func testUsageErrorsAndABadAuditKeyTouchNoDevice() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 8_000)
        _ = try directory.write("not-a-key.pem", text: "hello\n")
        let run = try DFUKitBinary.run(["batch", "run", "--profile", DFUKitBinary.shippedProfile, "--package", package,
                                        "--device", "sim:vendor-ctrlpt?fleet=2", "--ledger",
                                        "sqlite:" + directory.file("line.sqlite"), "--audit-key", "not-a-key.pem"],
                                       in: directory.path)
        XCTAssertEqual(run.status, 64, run.transcript)
        XCTAssertTrue(run.stderr.contains("the audit key not-a-key.pem is not usable"), run.stderr)
        XCTAssertTrue(run.stderr.contains("no device was touched"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.file("line.sqlite")), "not even the ledger was opened")

        let neither = try DFUKitBinary.run(["station", "audit", "verify", "--key", "station.pub"], in: directory.path)
        XCTAssertEqual(neither.status, 64, neither.transcript)
        let badKey = try DFUKitBinary.run(["station", "audit", "verify", "--key", "not-a-key.pem", "x.jsonl"],
                                          in: directory.path)
        XCTAssertEqual(badKey.status, 64, badKey.transcript)
        XCTAssertTrue(badKey.stderr.contains("not-a-key.pem"), badKey.stderr)
    }
}
