import Foundation
import XCTest

/// Two stations (two `dfukit batch run` processes) on one PostgreSQL ledger, over the same
/// devices: none is flashed twice. Needs a server: `make test-postgres` starts one and sets
/// DFUKIT_TEST_POSTGRES_URL (CI runs it).
final class BatchPostgresTests: XCTestCase {
    private func url() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["DFUKIT_TEST_POSTGRES_URL"] else {
            throw XCTSkip("set DFUKIT_TEST_POSTGRES_URL (make test-postgres starts a server)")
        }
        return url
    }

    private func station(_ name: String, package: String, ledger: String, directory: TemporaryDirectory) throws -> Process {
        let process = Process()
        process.executableURL = try DFUKitBinary.located.get()
        process.arguments = ["batch", "run", "--profile", DFUKitBinary.shippedProfile, "--package", package,
                             "--device", "sim:vendor-ctrlpt?fleet=30", "--ledger", ledger, "--station", name,
                             "--concurrency", "2", "--json"]
        process.currentDirectoryURL = URL(fileURLWithPath: directory.path)
        process.standardOutput = FileHandle(forWritingAtPath: try directory.write("\(name).json", text: ""))
        process.standardError = FileHandle(forWritingAtPath: try directory.write("\(name).log", text: ""))
        try process.run()
        return process
    }

    func testTwoStationsNeverFlashTheSameDevice() throws {
        let ledger = try url()
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 60_000,
                                                          name: "firmware-\(UUID().uuidString.prefix(8)).zip")
        let first = try station("station-a", package: package, ledger: ledger, directory: directory)
        let second = try station("station-b", package: package, ledger: ledger, directory: directory)
        first.waitUntilExit()
        second.waitUntilExit()
        XCTAssertEqual(first.terminationStatus, 0)
        XCTAssertEqual(second.terminationStatus, 0)
        let a = try jsonObject(try String(contentsOfFile: directory.file("station-a.json"), encoding: .utf8))
        let b = try jsonObject(try String(contentsOfFile: directory.file("station-b.json"), encoding: .utf8))
        let flashedA = a["succeeded"] as? Int ?? 0, flashedB = b["succeeded"] as? Int ?? 0
        XCTAssertEqual(flashedA + flashedB, 30, "every device flashed once, by one of the stations")
        XCTAssertEqual((a["skipped"] as? Int ?? 0) + flashedA, 30)
        XCTAssertEqual((b["skipped"] as? Int ?? 0) + flashedB, 30)

        let sha = try XCTUnwrap(a["package_sha256"] as? String)
        let report = try DFUKitBinary.run(["batch", "report", "--ledger", ledger, "--package", sha, "--json"])
        XCTAssertEqual(report.status, 0, report.transcript)
        let summary = try jsonObject(report.stdout)
        XCTAssertEqual(summary["devices"] as? Int, 30)
        XCTAssertEqual(summary["succeeded"] as? Int, 30)
        XCTAssertEqual(summary["attempts"] as? Int, 30, "one attempt per device: none was flashed twice")
    }
}
