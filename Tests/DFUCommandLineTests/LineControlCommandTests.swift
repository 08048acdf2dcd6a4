import Foundation
import XCTest

/// The line controls as an operator meets them, through the built binary on SQLite ledgers:
/// `--halt-when` halts a line, `--exit-when-halted` ends with 75, a second station on the
/// same ledger starts nothing, `station resume` lets it go on, quarantine and `station release`.
final class LineControlCommandTests: XCTestCase {
    /// `fleet=8&fault-rate=0.3&seed=6`: devices 1, 2, 4 and 8 fail their first attempt.
    static let fleet = "fleet=8&fault-rate=0.3&seed=6"

    private func batch(_ package: String, ledger: String, station: String, in directory: TemporaryDirectory,
                       fleet: String = fleet, retries: Int = 0, extra: [String] = []) throws -> ProcessResult {
        try DFUKitBinary.run(["batch", "run", "--profile", DFUKitBinary.shippedProfile, "--package", package,
                              "--device", "sim:vendor-ctrlpt?\(fleet)", "--ledger", "sqlite:\(ledger)",
                              "--station", station, "--line", "east", "--retries", String(retries), "--json"] + extra,
                             in: directory.path)
    }

    private func rows(_ ledger: String, _ sql: String) throws -> [[String]] {
        let script = """
            import json, sqlite3, sys
            print(json.dumps([[str(v) for v in row] for row in sqlite3.connect(sys.argv[1]).execute(sys.argv[2])]))
            """
        let output = try Subprocess.tool("python3", ["-c", script, ledger, sql])
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String]])
    }

    func testAHaltedLineStopsEveryStationUntilResumed() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 4_000)
        let ledger = directory.file("line.sqlite")
        let rule = ["--halt-when", "failed >= 2 of last 3", "--exit-when-halted"]

        let first = try batch(package, ledger: ledger, station: "s1", in: directory, extra: rule)
        XCTAssertEqual(first.status, 75, first.transcript)
        let summary = try jsonObject(first.stdout)
        XCTAssertEqual(summary["devices"] as? Int, 2)
        XCTAssertEqual(summary["halts"] as? Int, 1)
        XCTAssertEqual(summary["line"] as? String, "east")
        XCTAssertEqual(summary["line_halted"] as? String, "line east halted: failed >= 2 of last 3 held (seen by station s1)")
        XCTAssertTrue(first.stderr.contains("dfukit station resume --ledger sqlite:\(ledger) --line east"), first.stderr)

        // Another station of the line, on the same ledger file: it starts nothing.
        let second = try batch(package, ledger: ledger, station: "s2", in: directory, extra: rule)
        XCTAssertEqual(second.status, 75, second.transcript)
        let secondSummary = try jsonObject(second.stdout)
        XCTAssertEqual(secondSummary["devices"] as? Int, 0)
        XCTAssertEqual(secondSummary["halts"] as? Int, 0)
        OutputSchemaCheck.assertValid([("halted", first.stdout), ("halted-elsewhere", second.stdout)], against: "batch-run")

        let halt = try rows(ledger, "SELECT kind, line, station, rule, attempts FROM dfukit_line_events")
        XCTAssertEqual(halt, [["halted", "east", "s1", "failed >= 2 of last 3",
                               "C0:FF:EE:00:00:01 #1 on s1: failed\nC0:FF:EE:00:00:02 #1 on s1: failed"]])

        let resume = try DFUKitBinary.run(["station", "resume", "--ledger", "sqlite:\(ledger)", "--line", "east",
                                           "--operator", "ann", "--reason", "fixture reseated"], in: directory.path)
        XCTAssertEqual(resume.status, 0, resume.transcript)
        XCTAssertEqual(resume.stderr, "line east resumed by ann: fixture reseated; its stations start new devices again\n")
        let again = try DFUKitBinary.run(["station", "resume", "--ledger", "sqlite:\(ledger)", "--line", "east"],
                                         in: directory.path)
        XCTAssertEqual(again.status, 0, again.transcript)
        XCTAssertEqual(again.stderr, "line east is not halted: nothing recorded\n")

        // The cause is fixed (no fault any more): the line goes on where it stopped.
        let third = try batch(package, ledger: ledger, station: "s2", in: directory, fleet: "fleet=8", extra: rule)
        XCTAssertEqual(third.status, 0, third.transcript)
        let thirdSummary = try jsonObject(third.stdout)
        XCTAssertEqual(thirdSummary["succeeded"] as? Int, 8)
        XCTAssertEqual(thirdSummary["line_halted"] as? NSNull, NSNull())
        XCTAssertEqual(try rows(ledger, "SELECT kind, operator, reason FROM dfukit_line_events WHERE kind = 'resumed'"),
                       [["resumed", "ann", "fixture reseated"]])
        XCTAssertEqual(try rows(ledger, "SELECT DISTINCT line FROM dfukit_attempts"), [["east"]])

        let report = try DFUKitBinary.run(["batch", "report", "--ledger", "sqlite:\(ledger)"], in: directory.path)
        XCTAssertTrue(report.stdout.contains("halted"), report.transcript)
    }

    /// By default a station waits on a halted line, and goes on once an operator resumes it.
    func testAWaitingStationGoesOnAfterAResume() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 4_000)
        let ledger = directory.file("line.sqlite")
        let executable = try DFUKitBinary.located.get()
        let capture = try CapturedOutput(prefix: "dfukit-halt")
        let (process, finished) = capture.process(executable, [
            "batch", "run", "--profile", DFUKitBinary.shippedProfile, "--package", package,
            "--device", "sim:vendor-ctrlpt?\(Self.fleet)", "--ledger", "sqlite:\(ledger)", "--station", "s1",
            "--line", "east", "--retries", "0", "--halt-when", "failed >= 2 of last 3", "--json",
        ])
        process.currentDirectoryURL = URL(fileURLWithPath: directory.path)
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, process.isRunning, !capture.stderrSoFar.contains("waiting, polling the ledger") {
            Thread.sleep(forTimeInterval: 0.05)
        }
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertTrue(process.isRunning, "the station waits on a halted line: " + capture.stderrSoFar)
        XCTAssertEqual(try rows(ledger, "SELECT count(*) FROM dfukit_attempts"), [["2"]])
        let resume = try DFUKitBinary.run(["station", "resume", "--ledger", "sqlite:\(ledger)", "--line", "east"],
                                          in: directory.path)
        XCTAssertEqual(resume.status, 0, resume.transcript)
        if finished.wait(timeout: .now() + 60) == .timedOut {
            process.terminate()
            finished.wait()
            XCTFail("the station did not go on after the resume: " + capture.stderrSoFar)
        }
        let result = try capture.result(of: process)
        XCTAssertEqual(result.status, 1, result.transcript)
        XCTAssertTrue(result.stderr.contains("line east resumed: starting new devices again"), result.stderr)
        XCTAssertEqual(try jsonObject(result.stdout)["devices"] as? Int, 8)
    }

    func testQuarantineAndRelease() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 4_000)
        let ledger = directory.file("line.sqlite")
        let failing = "fleet=2&fault=unresponsive-after:1000"
        let extra = ["--quarantine-after", "2"]
        let first = try batch(package, ledger: ledger, station: "s1", in: directory, fleet: failing, retries: 3, extra: extra)
        XCTAssertEqual(first.status, 1, first.transcript)
        XCTAssertEqual(try jsonObject(first.stdout)["quarantined"] as? Int, 2)
        XCTAssertEqual(try jsonObject(first.stdout)["attempts"] as? Int, 4)
        XCTAssertEqual(try rows(ledger, "SELECT kind, device FROM dfukit_line_events ORDER BY id"),
                       [["quarantined", "C0:FF:EE:00:00:01"], ["quarantined", "C0:FF:EE:00:00:02"]])

        let rerun = try batch(package, ledger: ledger, station: "s2", in: directory, fleet: failing, retries: 3, extra: extra)
        XCTAssertEqual(try jsonObject(rerun.stdout)["attempts"] as? Int, 0, rerun.transcript)
        XCTAssertTrue(rerun.stderr.contains("C0:FF:EE:00:00:01: skipped: it is quarantined"), rerun.stderr)

        let release = try DFUKitBinary.run(["station", "release", "--ledger", "sqlite:\(ledger)", "C0:FF:EE:00:00:01",
                                            "--operator", "bob"], in: directory.path)
        XCTAssertEqual(release.status, 0, release.transcript)
        XCTAssertEqual(release.stderr, "C0:FF:EE:00:00:01 released: stations may claim it again\n")
        let twice = try DFUKitBinary.run(["station", "release", "--ledger", "sqlite:\(ledger)", "C0:FF:EE:00:00:01"],
                                         in: directory.path)
        XCTAssertEqual(twice.stderr, "C0:FF:EE:00:00:01 is not quarantined: nothing recorded\n")
        let released = try batch(package, ledger: ledger, station: "s2", in: directory, fleet: failing, retries: 3, extra: extra)
        XCTAssertEqual(try jsonObject(released.stdout)["attempts"] as? Int, 2, released.transcript)
    }

    func testMistakesAreRefusedBeforeAnyDevice() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 4_000)
        let ledger = directory.file("line.sqlite")
        let flag = try batch(package, ledger: ledger, station: "s1", in: directory,
                             extra: ["--halt-when", "failed >= 3 off last 10"])
        XCTAssertEqual(flag.status, 64, flag.transcript)
        XCTAssertTrue(flag.stderr.contains("--halt-when: expected 'of', found 'off' at column 13 (the rule is "
                                           + "'failed >= K of last N', e.g. 'failed >= 3 of last 10')"), flag.stderr)
        let bound = try batch(package, ledger: ledger, station: "s1", in: directory, extra: ["--halt-when", "failed >= 4 of last 3"])
        XCTAssertEqual(bound.status, 64, bound.transcript)
        XCTAssertTrue(bound.stderr.contains("K must be in 1...N (3), not 4"), bound.stderr)

        let lineFile = directory.file("east.yaml")
        try "halt-when: failed >= 3 of lats 10\n".write(toFile: lineFile, atomically: true, encoding: .utf8)
        let file = try DFUKitBinary.run(["batch", "run", lineFile, "--profile", DFUKitBinary.shippedProfile,
                                         "--package", package, "--device", "sim:vendor-ctrlpt?fleet=2",
                                         "--ledger", "sqlite:\(ledger)"], in: directory.path)
        XCTAssertEqual(file.status, 65, file.transcript)
        XCTAssertTrue(file.stderr.contains("east.yaml:1:27: error: 'halt-when': expected 'last', found 'lats'"), file.stderr)

        for (arguments, status) in [
            (["station", "resume", "--ledger", "sqlite:\(ledger)"], Int32(64)),
            (["station", "resume", "--ledger", "sqlite:\(directory.file("none.sqlite"))", "--line", "east"], 74),
            (["station", "release", "--ledger", "sqlite:\(ledger)", "not-an-address"], 64),
        ] {
            let result = try DFUKitBinary.run(arguments, in: directory.path)
            XCTAssertEqual(result.status, status, result.transcript)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: ledger), "nothing ran")
    }
}
