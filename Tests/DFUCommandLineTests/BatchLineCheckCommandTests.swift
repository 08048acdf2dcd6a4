import Foundation
import XCTest

/// What a line file may ask, checked by the built binary before any device is touched, and the
/// skip rules: `skip-done: false` and `skip-installed`.
final class BatchLineCheckCommandTests: XCTestCase {
    private let root = DFUKitBinary.repositoryRoot.path

    /// A vendor line over a simulated fleet, with `extra` lines appended to the line file.
    private func vendorLine(_ directory: TemporaryDirectory, fleet: Int = 3, extra: String) throws -> String {
        let package = try PackageCommandTests.makePackage(in: directory, size: 6_000)
        try directory.write("line.yaml", text: """
            profile: \(DFUKitBinary.shippedProfile)
            package: \(package)
            device: "sim:vendor-ctrlpt?fleet=\(fleet)"
            ledger: sqlite:ledger.sqlite
            station: line-1
            retries: 0

            """ + extra)
        return "line.yaml"
    }

    /// `SELECT result, device_version FROM dfukit_attempts ORDER BY id`, read with Python's sqlite3.
    private func attempts(_ ledger: String) throws -> [[String?]] {
        let script = """
            import json, sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            print(json.dumps(db.execute("SELECT result, device_version FROM dfukit_attempts ORDER BY id").fetchall()))
            """
        let output = try Subprocess.tool("python3", ["-c", script, ledger])
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[Any]]).map { row in
            row.map { $0 as? String }
        }
    }

    func testACheckNamingAnUnknownCommandIsRefusedBeforeAnyDeviceIsTouched() throws {
        let directory = try TemporaryDirectory()
        let line = try vendorLine(directory, extra: """
            checks:
              - exec: infoo
                expect: [infoo.sha256 == image.sha256]

            """)
        let result = try DFUKitBinary.run(["batch", "run", line], in: directory.path)
        XCTAssertEqual(result.status, 65, result.transcript)
        XCTAssertTrue(result.stderr.contains("line.yaml:8:11: error: profile 'vendor-ctrlpt' has no command 'infoo'; "
                                             + "did you mean 'info'?"), result.transcript)
        XCTAssertTrue(result.stderr.hasSuffix("no device was touched.\n"), result.transcript)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.file("ledger.sqlite")),
                       "the ledger is not even opened: no attempt can be written")
    }

    /// A Nordic package on a vendor line: the profile's `packages:` does not take it.
    func testAPackageOfAnotherKindIsRefusedBeforeAnyDeviceIsTouched() throws {
        let directory = try TemporaryDirectory()
        let nordic = "\(root)/firmware-samples/nordic/app-signed.zip"
        try directory.write("line.yaml", text: """
            profile: \(DFUKitBinary.shippedProfile)
            package: \(nordic)
            device: "sim:vendor-ctrlpt?fleet=2"
            ledger: sqlite:ledger.sqlite

            """)
        let result = try DFUKitBinary.run(["batch", "run", "line.yaml"], in: directory.path)
        XCTAssertEqual(result.status, 65, result.transcript)
        XCTAssertTrue(result.stderr.contains("profile 'vendor-ctrlpt' takes only"), result.transcript)
        XCTAssertTrue(result.stderr.contains("nordic-secure-dfu"), "names the profile that fits\n\(result.transcript)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.file("ledger.sqlite")), result.transcript)
    }

    func testAnUnknownFieldAndAWrongTypeAreRefusedWithTheirColumns() throws {
        let directory = try TemporaryDirectory()
        let line = try vendorLine(directory, extra: """
            checks:
              - exec: info
                expect:
                  - info.version == '1.2.0'
                  - info.size == image.name
            set: { prn: 4 }

            """)
        let result = try DFUKitBinary.run(["batch", "run", line], in: directory.path)
        // Every mistake at once; a parameter the profile does not take makes it a usage error
        // (64), as it is through every other way in.
        XCTAssertEqual(result.status, 64, result.transcript)
        let expected = [
            "line.yaml:10:9: error: in 'info.version == '1.2.0'': 'info' has no field 'version' (it has: sha256, size, status)",
            "line.yaml:11:9: error: in 'info.size == image.name': '==' compares an integer with text: they are never equal",
            "line.yaml:12:8: error: profile 'vendor-ctrlpt' has no parameter 'prn'; it has no parameters",
        ]
        for message in expected { XCTAssertTrue(result.stderr.contains(message), "\(message)\n\(result.transcript)") }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.file("ledger.sqlite")))
    }

    func testAFailedCheckShowsTheValueItSaw() throws {
        let directory = try TemporaryDirectory()
        let line = try vendorLine(directory, fleet: 1, extra: "checks: [{ exec: info, expect: [info.size == 1] }]\n")
        let result = try DFUKitBinary.run(["batch", "run", line], in: directory.path)
        XCTAssertEqual(result.status, 1, result.transcript)
        XCTAssertTrue(result.stderr.contains("check 'info': expected info.size == 1, saw info.size = 6000 (0x1770)"),
                      result.transcript)
    }

    func testSkipDoneFalseFlashesDoneDevicesAgain() throws {
        let directory = try TemporaryDirectory()
        let line = try vendorLine(directory, extra: "")
        let first = try DFUKitBinary.run(["batch", "run", line, "--json"], in: directory.path)
        XCTAssertEqual(first.status, 0, first.transcript)
        let skipping = try DFUKitBinary.run(["batch", "run", line, "--json"], in: directory.path)
        XCTAssertEqual(try jsonObject(skipping.stdout)["skipped"] as? Int, 3, "skip-done is true by default")

        try directory.write("again.yaml", text: try String(contentsOfFile: directory.file(line), encoding: .utf8)
                                + "skip-done: false\n")
        let again = try DFUKitBinary.run(["batch", "run", "again.yaml", "--json"], in: directory.path)
        XCTAssertEqual(again.status, 0, again.transcript)
        let summary = try jsonObject(again.stdout)
        XCTAssertEqual(summary["succeeded"] as? Int, 3)
        XCTAssertEqual(summary["skipped"] as? Int, 0)
        XCTAssertEqual(try attempts(directory.file("ledger.sqlite")).map { $0[0] }, Array(repeating: "succeeded", count: 6))
    }

    /// Telink devices that report the package's version in their Firmware Revision String are
    /// skipped, recorded as such with that version, and shown so in the report.
    func testSkipInstalledReadsTheFirmwareRevisionAndRecordsTheVersionSeen() throws {
        let directory = try TemporaryDirectory()
        func line(_ revision: String) -> String {
            """
            profile: \(root)/profiles/telink-ota.yaml
            package: \(root)/firmware-samples/telink/app-v1.1.0.zip
            device: "sim:telink-ota?fleet=3&firmware-revision=\(revision)"
            ledger: sqlite:ledger-\(revision).sqlite
            skip-installed:
              read: firmware_revision
              installed: firmware_revision.text == image.version

            """
        }
        try directory.write("current.yaml", text: line("1.1.0"))
        let skipped = try DFUKitBinary.run(["batch", "run", "current.yaml", "--json"], in: directory.path)
        XCTAssertEqual(skipped.status, 0, skipped.transcript)
        let summary = try jsonObject(skipped.stdout)
        XCTAssertEqual(summary["skipped"] as? Int, 3)
        XCTAssertEqual(summary["attempts"] as? Int, 0, "no update was attempted")
        XCTAssertEqual(try attempts(directory.file("ledger-1.1.0.sqlite")).map { $0 }, Array(repeating: ["skipped", "1.1.0"], count: 3))
        let report = try DFUKitBinary.run(["batch", "report", "--ledger", "sqlite:ledger-1.1.0.sqlite"], in: directory.path)
        XCTAssertTrue(report.stdout.contains("3 skipped (already running the target)"), report.transcript)
        XCTAssertTrue(report.stdout.contains("skipped:    3 already ran the target (version seen 1.1.0: 3)"), report.transcript)

        try directory.write("older.yaml", text: line("1.0.0"))
        let flashed = try DFUKitBinary.run(["batch", "run", "older.yaml", "--json"], in: directory.path)
        XCTAssertEqual(flashed.status, 0, flashed.transcript)
        XCTAssertEqual(try jsonObject(flashed.stdout)["succeeded"] as? Int, 3, "devices on 1.0.0 are flashed")
    }

    func testTheHelpSaysWhichExitCodesBatchUses() throws {
        let result = try DFUKitBinary.run(["batch", "run", "--help"])
        XCTAssertEqual(result.status, 0, result.transcript)
        for code in ["  0   every device done", "  1   some device failed", "  64  usage",
                     "  65  the line was refused before any device was touched", "  69  the transport is unavailable",
                     "  74  the ledger cannot be opened, or stayed unreachable", "  130 stopped by SIGINT",
                     "  143 stopped by SIGTERM"] {
            XCTAssertTrue(result.stdout.contains(code), "\(code)\n\(result.stdout)")
        }
    }
}
