import Foundation
import XCTest

/// `batch run --audit-key` on a PostgreSQL ledger, then `station audit export` and `verify`.
extension BatchPostgresTests {
    func testASignedLineOnPostgreSQLExportsAndVerifies() throws {
        let ledger = try url()
        let directory = try TemporaryDirectory()
        let keygen = try DFUKitBinary.run(["station", "keygen", "--out", "station.key"], in: directory.path)
        XCTAssertEqual(keygen.status, 0, keygen.transcript)
        let package = try PackageCommandTests.makePackage(in: directory, size: 8_000,
                                                          name: "firmware-\(UUID().uuidString.prefix(8)).zip")
        // A station name of its own: the export and verify see only this test's attempts.
        let station = "audit-\(UUID().uuidString.prefix(8))"
        let run = try DFUKitBinary.run(["batch", "run", "--profile", DFUKitBinary.shippedProfile, "--package", package,
                                        "--device", "sim:vendor-ctrlpt?fleet=3", "--ledger", ledger, "--station", station,
                                        "--audit-key", "station.key"], in: directory.path)
        XCTAssertEqual(run.status, 0, run.transcript)
        let export = try DFUKitBinary.run(["station", "audit", "export", "--ledger", ledger, "--station", station],
                                          in: directory.path)
        XCTAssertEqual(export.status, 0, export.transcript)
        XCTAssertEqual(export.stdout.split(separator: "\n").count, 3, export.stdout)
        let verify = try DFUKitBinary.run(["station", "audit", "verify", "--key", "station.pub", "--ledger", ledger,
                                           "--station", station], in: directory.path)
        XCTAssertEqual(verify.status, 0, verify.transcript)
        XCTAssertTrue(verify.stdout.contains("3 verified, 0 not verified, 0 missing"), verify.stdout)

        let edited = export.stdout.replacingOccurrences(of: "\"result\":\"succeeded\"", with: "\"result\":\"failed\"")
        let file = try directory.write("edited.jsonl", text: edited)
        let tampered = try DFUKitBinary.run(["station", "audit", "verify", "--key", "station.pub", file], in: directory.path)
        XCTAssertEqual(tampered.status, 65, tampered.transcript)
        XCTAssertTrue(tampered.stdout.contains("0 verified, 3 not verified"), tampered.stdout)
    }
}
