import Foundation
import XCTest

/// `batch run` feeds the station dashboard through its ledger: while a real-time simulated fleet
/// flashes, its station row is `running` and its devices in flight have live rows that move
/// through the procedure's phases with bytes done; when it exits, its station row is `ended`
/// and no live row is left. The SQLite file is read by another process (python3) as it runs.
final class LiveRowsCommandTests: XCTestCase {
    /// Runs python3 over the ledger: `sql`'s rows as JSON arrays of strings (NULL as "None").
    private func rows(_ ledger: String, _ sql: String) throws -> [[String]] {
        let script = """
            import json, sqlite3, sys
            db = sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True, timeout=5)
            print(json.dumps([[str(v) for v in row] for row in db.execute(sys.argv[2])]))
            """
        let output = try Subprocess.tool("python3", ["-c", script, ledger, sql])
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String]])
    }

    func testABatchRunWritesLiveRowsWhileItFlashesAndEndsItsStationRow() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 30_000)
        let ledger = directory.file("line.sqlite")
        let capture = try CapturedOutput(prefix: "dfukit-live")
        let (process, finished) = capture.process(try DFUKitBinary.located.get(), [
            "batch", "run", "--profile", DFUKitBinary.shippedProfile, "--package", package,
            "--device", "sim:vendor-ctrlpt?fleet=4&realtime=1", "--ledger", "sqlite:\(ledger)", "--station", "s1",
            "--line", "east", "--concurrency", "2", "--json",
        ])
        process.currentDirectoryURL = URL(fileURLWithPath: directory.path)
        try process.run()

        var seen: [[String]] = []
        var stationStates: Set<String> = []
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning, Date() < deadline {
            if FileManager.default.fileExists(atPath: ledger),
               let live = try? rows(ledger, "SELECT device, station, line, attempt, phase, done, total, mtu, rssi FROM dfukit_live"),
               let stations = try? rows(ledger, "SELECT station, state, line FROM dfukit_stations") {
                seen += live
                stationStates.formUnion(stations.map { $0.joined(separator: "|") })
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        if finished.wait(timeout: .now() + 30) == .timedOut {
            process.terminate()
            finished.wait()
            XCTFail("the batch did not end: " + capture.stderrSoFar)
        }
        let result = try capture.result(of: process)
        XCTAssertEqual(result.status, 0, result.transcript)
        XCTAssertEqual(try jsonObject(result.stdout)["succeeded"] as? Int, 4)

        XCTAssertTrue(stationStates.contains("s1|running|east"), "the station ran: \(stationStates)")
        XCTAssertEqual(Set(seen.map { $0[0] }).count, 4, "every device had a live row: \(seen)")
        XCTAssertTrue(seen.allSatisfy { $0[1] == "s1" && $0[2] == "east" && $0[3] == "1" }, "\(seen)")
        let transfer = seen.filter { $0[4] == "transfer" && Int($0[5]) ?? 0 > 0 }
        XCTAssertFalse(transfer.isEmpty, "bytes done during the transfer: \(seen)")
        XCTAssertTrue(transfer.allSatisfy { Int($0[5])! <= Int($0[6])! && Int($0[6])! > 0 }, "\(transfer)")
        XCTAssertTrue(seen.contains { $0[4] == "verify" || $0[4] == "activate" }, "later phases: \(Set(seen.map { $0[4] }))")
        XCTAssertTrue(transfer.allSatisfy { $0[7] == "247" && $0[8] != "None" }, "the link's MTU and the scan's RSSI")

        XCTAssertEqual(try rows(ledger, "SELECT count(*) FROM dfukit_live"), [["0"]], "no live row is left")
        XCTAssertEqual(try rows(ledger, "SELECT station, state, line FROM dfukit_stations"), [["s1", "ended", "east"]])
        XCTAssertFalse(result.stderr.contains("warning"), result.stderr)
    }

    /// A station that cannot write its live rows (here a trigger refuses them) flashes every
    /// device and records every attempt as ever, with one warning for the whole run.
    func testLiveRowsThatCannotBeWrittenNeitherStopNorFailTheFlash() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 4_000)
        let ledger = directory.file("line.sqlite")
        func batch(_ fleet: String) throws -> ProcessResult {
            try DFUKitBinary.run(["batch", "run", "--profile", DFUKitBinary.shippedProfile, "--package", package,
                                  "--device", "sim:vendor-ctrlpt?\(fleet)", "--ledger", "sqlite:\(ledger)", "--station", "s1",
                                  "--concurrency", "3", "--json"], in: directory.path)
        }
        let first = try batch("fleet=2")
        XCTAssertEqual(first.status, 0, first.transcript)
        _ = try Subprocess.tool("python3", ["-c", """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("CREATE TRIGGER refuse_live BEFORE INSERT ON dfukit_live BEGIN SELECT RAISE(ABORT, 'live rows refused'); END")
            db.commit()
            """, ledger])
        let second = try batch("fleet=6")
        XCTAssertEqual(second.status, 0, second.transcript)
        XCTAssertEqual(try jsonObject(second.stdout)["succeeded"] as? Int, 4, "the 4 devices not done before")
        let warnings = second.stderr.components(separatedBy: "\n").filter { $0.hasPrefix("warning: the station dashboard") }
        XCTAssertEqual(warnings.count, 1, second.stderr)
        XCTAssertTrue(warnings.first?.contains("live rows refused") ?? false, second.stderr)
        XCTAssertEqual(try rows(ledger, "SELECT count(*) FROM dfukit_attempts WHERE result = 'succeeded'"), [["6"]])
        XCTAssertEqual(try rows(ledger, "SELECT state FROM dfukit_stations ORDER BY started_at"), [["ended"], ["ended"]])
    }
}
