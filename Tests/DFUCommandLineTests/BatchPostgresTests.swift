import Foundation
import XCTest

/// Two stations (two `dfukit batch run` processes) on one PostgreSQL ledger, over the same
/// devices: none is flashed twice. Needs a server: `make test-postgres` starts one and sets
/// DFUKIT_TEST_POSTGRES_URL (CI runs it).
final class BatchPostgresTests: XCTestCase {
    func url() throws -> String {
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

    /// The server's psql (as scripts/start-postgres.sh finds it), else the one on the PATH.
    static var psql: String {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        let newest = versions.sorted { $0.compare($1, options: .numeric) == .orderedAscending }.last
        if let newest, FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\(newest)/bin/psql") {
            return "/usr/lib/postgresql/\(newest)/bin/psql"
        }
        return "psql"
    }

    /// The ledger becomes unreachable mid-run (the database refuses new connections and the
    /// station's backend is terminated): the station retries, gives up after its bound
    /// (`DFUKIT_LEDGER_GIVE_UP=2s` here, 30 s by default), starts no more devices, says so and
    /// exits 74; every success it reports is in the ledger.
    func testUnreachableLedgerStopsTheStationWithExit74() throws {
        let base = try url()
        let application = "dfukit-station-\(UUID().uuidString.prefix(8))"
        let ledger = base + (base.contains("?") ? "&" : "?") + "application_name=\(application)"
        let database = String(base.split(separator: "?")[0].split(separator: "/").last ?? "")
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 120_000,
                                                          name: "firmware-\(UUID().uuidString.prefix(8)).zip")
        let process = Process()
        process.executableURL = try DFUKitBinary.located.get()
        process.arguments = ["batch", "run", "--profile", DFUKitBinary.shippedProfile, "--package", package,
                             "--device", "sim:vendor-ctrlpt?fleet=2000", "--ledger", ledger, "--station", "cut-off",
                             "--concurrency", "2", "--json"]
        process.environment = ProcessInfo.processInfo.environment.merging(["DFUKIT_LEDGER_GIVE_UP": "2s"]) { $1 }
        process.currentDirectoryURL = URL(fileURLWithPath: directory.path)
        let output = try directory.write("out.json", text: "")
        let errors = try directory.write("err.txt", text: "")
        process.standardOutput = FileHandle(forWritingAtPath: output)
        process.standardError = FileHandle(forWritingAtPath: errors)
        try process.run()
        func log() -> String { (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "" }
        let started = Date().addingTimeInterval(60)
        while Date() < started, process.isRunning, log().components(separatedBy: ": done (").count - 1 < 3 {
            Thread.sleep(forTimeInterval: 0.02)
        }
        XCTAssertTrue(process.isRunning, "the batch was still running when the ledger was cut off")
        // One psql session: refuse new connections to the database, end the station's backend, hold
        // the refusal for 10 s (the station gives up after 2 s), then allow connections again.
        let outage = Process()
        outage.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        outage.arguments = [Self.psql, base, "-v", "ON_ERROR_STOP=1", "-q",
                            "-c", "ALTER DATABASE \"\(database)\" CONNECTION LIMIT 0",
                            "-c", "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = '\(application)'",
                            "-c", "SELECT pg_sleep(10)",
                            "-c", "ALTER DATABASE \"\(database)\" CONNECTION LIMIT -1"]
        outage.standardOutput = FileHandle.nullDevice
        try outage.run()
        let exited = Date().addingTimeInterval(60)
        while process.isRunning, Date() < exited { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        outage.waitUntilExit()
        XCTAssertEqual(outage.terminationStatus, 0, "psql could not cut the ledger off")
        XCTAssertEqual(process.terminationStatus, 74, log())
        XCTAssertTrue(log().contains("stopped: the ledger is unreachable"), log())
        let summary = try jsonObject(try String(contentsOfFile: output, encoding: .utf8))
        XCTAssertEqual(summary["stopped"] as? Bool, true)
        XCTAssertNotNil(summary["ledger_error"] as? String)
        let flashed = summary["succeeded"] as? Int ?? -1
        XCTAssertLessThan(summary["devices"] as? Int ?? 2_000, 2_000, "devices stopped being started")
        let sha = summary["package_sha256"] as? String ?? ""
        let count = try Subprocess.tool(Self.psql, [base, "-At", "-c",
            "SELECT count(*) FROM dfukit_attempts WHERE package_sha256 = '\(sha)' AND result = 'succeeded'"])
        // Every success the station counted is in the ledger; the ledger may hold more: a record
        // committed just before the cut whose answer was lost (the station said NOT CONFIRMED).
        let recorded = Int(count.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        let unconfirmed = summary["unconfirmed_records"] as? Int ?? 0
        XCTAssertGreaterThanOrEqual(recorded, flashed, log())
        XCTAssertLessThanOrEqual(recorded, flashed + unconfirmed, log())
    }
}
