import Foundation
import XCTest

/// Two stations of one line on one PostgreSQL ledger: a failure burst halts the line on both,
/// an operator's resume lets it go on.
extension BatchPostgresTests {
    private func lineStation(_ name: String, line: String, fleet: String, package: String, ledger: String,
                             directory: TemporaryDirectory) throws -> Process {
        let process = Process()
        process.executableURL = try DFUKitBinary.located.get()
        process.arguments = ["batch", "run", "--profile", DFUKitBinary.shippedProfile, "--package", package,
                             "--device", "sim:vendor-ctrlpt?\(fleet)", "--ledger", ledger, "--station", name,
                             "--line", line, "--retries", "0", "--halt-when", "failed >= 3 of last 3",
                             "--exit-when-halted", "--json"]
        process.currentDirectoryURL = URL(fileURLWithPath: directory.path)
        process.standardOutput = FileHandle(forWritingAtPath: try directory.write("\(name).json", text: ""))
        process.standardError = FileHandle(forWritingAtPath: try directory.write("\(name).log", text: ""))
        try process.run()
        return process
    }

    func testAHaltStopsBothStationsOfALineAndAResumeLetsItGoOn() throws {
        let ledger = try url()
        let directory = try TemporaryDirectory()
        let line = "pg-east-\(UUID().uuidString.prefix(8))"
        let package = try PackageCommandTests.makePackage(in: directory, size: 4_000,
                                                          name: "firmware-\(UUID().uuidString.prefix(8)).zip")
        // Every device fails its first attempt: the line halts after three failures, whoever made them.
        let stations = try ["a", "b"].map {
            try lineStation($0, line: line, fleet: "fleet=30&fault-rate=1", package: package, ledger: ledger, directory: directory)
        }
        for station in stations { station.waitUntilExit() }
        let summaries = try ["a", "b"].map {
            try jsonObject(try String(contentsOfFile: directory.file("\($0).json"), encoding: .utf8))
        }
        let logs = try ["a", "b"].map { try String(contentsOfFile: directory.file("\($0).log"), encoding: .utf8) }
        XCTAssertEqual(stations.map(\.terminationStatus), [75, 75], logs.joined(separator: "\n"))
        XCTAssertEqual(summaries.map { $0["halts"] as? Int ?? 0 }.reduce(0, +), 1, "one halt, recorded by one station")
        let attempts = summaries.map { $0["attempts"] as? Int ?? 0 }.reduce(0, +)
        XCTAssertLessThanOrEqual(attempts, 5, "three failures, and at most one device in flight on each station")
        let outputs = try ["a", "b"].map { ("station \($0)", try String(contentsOfFile: directory.file("\($0).json"), encoding: .utf8)) }
        OutputSchemaCheck.assertValid(outputs, against: "batch-run")

        let resume = try DFUKitBinary.run(["station", "resume", "--ledger", ledger, "--line", line, "--operator", "ann",
                                           "--reason", "burst cleared"])
        XCTAssertEqual(resume.status, 0, resume.transcript)
        XCTAssertTrue(resume.stderr.hasPrefix("line \(line) resumed by ann"), resume.stderr)

        let after = try lineStation("c", line: line, fleet: "fleet=30", package: package, ledger: ledger, directory: directory)
        after.waitUntilExit()
        let summary = try jsonObject(try String(contentsOfFile: directory.file("c.json"), encoding: .utf8))
        let log = try String(contentsOfFile: directory.file("c.log"), encoding: .utf8)
        XCTAssertEqual(after.terminationStatus, 0, log)
        XCTAssertEqual(summary["line_halted"] as? NSNull, NSNull())

        let sha = try XCTUnwrap(summaries[0]["package_sha256"] as? String)
        let report = try DFUKitBinary.run(["batch", "report", "--ledger", ledger, "--package", sha, "--json"])
        let events = try XCTUnwrap(try jsonObject(report.stdout)["line_events"] as? [[String: Any]])
            .filter { $0["line"] as? String == line }
        XCTAssertEqual(events.map { $0["kind"] as? String }, ["halted", "resumed"])
        XCTAssertEqual(events.last?["operator"] as? String, "ann")
        XCTAssertEqual((events.first?["attempts"] as? [String])?.count, 3)
    }
}
