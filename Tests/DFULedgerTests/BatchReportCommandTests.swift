import DFULedger
import Foundation
import XCTest

/// `dfukit batch report`, run as the built binary: outputs, files and exit statuses. Also writes
/// the sample ledger that scripts/check-html-report.sh renders in headless Chromium.
final class BatchReportCommandTests: XCTestCase {
    /// The built `dfukit`, next to this test bundle (`swift build --build-tests` builds both), or
    /// `$DFUKIT_BINARY`.
    static var binary: String {
        if let override = ProcessInfo.processInfo.environment["DFUKIT_BINARY"], !override.isEmpty { return override }
        return (SQLiteCrashTests.testBundleExecutable as NSString).deletingLastPathComponent + "/dfukit"
    }

    private func dfukit(_ arguments: [String]) throws -> ProcessResult {
        guard FileManager.default.isExecutableFile(atPath: Self.binary) else {
            throw ProcessFailure(description: "dfukit is not built at \(Self.binary); build with the same scratch path "
                                 + "as the tests, or set DFUKIT_BINARY")
        }
        return try Subprocess.run(Self.binary, arguments)
    }

    /// Writes the sample line to `$DFUKIT_REPORT_SAMPLE_DIR/ledger.sqlite` when set (for
    /// scripts/check-html-report.sh), else to a temporary directory, and checks its report.
    func testWritesTheSampleLedger() async throws {
        let temporary = try TemporaryDirectory()
        let directory = ProcessInfo.processInfo.environment["DFUKIT_REPORT_SAMPLE_DIR"] ?? temporary.path
        let path = (directory as NSString).appendingPathComponent("ledger.sqlite")
        try? FileManager.default.removeItem(atPath: path)
        let ledger = try await SQLiteLedger(path: path)
        try await SampleLine.record(into: ledger)
        let summary = try await ledger.summary()
        XCTAssertEqual(summary, LedgerSummary(devices: 24, succeeded: 20, failed: 3, cancelled: 1, attempts: 35))
        await ledger.close()
    }

    /// The 500-device ledger `make test-report` renders (`DFUKIT_REPORT_SAMPLE_DIR`/ledger-500.sqlite).
    func testWritesTheLargeSampleLedger() async throws {
        let temporary = try TemporaryDirectory()
        let directory = ProcessInfo.processInfo.environment["DFUKIT_REPORT_SAMPLE_DIR"] ?? temporary.path
        let path = (directory as NSString).appendingPathComponent("ledger-500.sqlite")
        try? FileManager.default.removeItem(atPath: path)
        let ledger = try await SQLiteLedger(path: path)
        try await LargeSampleLine.record(into: ledger)
        let summary = try await ledger.summary()
        XCTAssertEqual(summary.devices, 500)
        XCTAssertEqual(summary.skipped, 20)
        await ledger.close()
    }

    func testTextJSONJUnitAndHTMLFromOneLedger() async throws {
        let directory = try TemporaryDirectory()
        let ledger = try await SQLiteLedger(path: directory.file("line.sqlite"))
        try await SampleLine.record(into: ledger)
        await ledger.close()
        let url = "sqlite:" + directory.file("line.sqlite")

        let text = try dfukit(["batch", "report", "--ledger", url])
        XCTAssertEqual(text.status, 0, text.transcript)
        XCTAssertEqual(text.stderr, "")
        XCTAssertTrue(text.stdout.contains("devices:    24: 20 succeeded, 3 failed, 1 cancelled (35 attempts)\n"), text.stdout)
        XCTAssertTrue(text.stdout.hasSuffix("result:     3 of 24 devices failed, 1 cancelled; 20 succeeded\n"), text.stdout)

        let json = try dfukit(["batch", "report", "--ledger", url, "--json", "--junit", directory.file("junit.xml"),
                               "--html", directory.file("report.html")])
        XCTAssertEqual(json.status, 0, json.transcript)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["devices"] as? Int, 24)
        XCTAssertEqual(object["succeeded"] as? Int, 20)
        XCTAssertEqual(object["failed"] as? Int, 3)
        XCTAssertEqual(object["attempts"] as? Int, 35)
        try assertWellFormedXML(directory.file("junit.xml"))
        let html = try String(contentsOfFile: directory.file("report.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("<svg id=\"chart-throughput\""))

        let filtered = try dfukit(["batch", "report", "--ledger", url, "--station", "line-1", "--json"])
        let filteredObject = try JSONSerialization.jsonObject(with: Data(filtered.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(filteredObject?["devices"] as? Int, 12)
    }

    func testExitStatusesForBadLedgers() throws {
        let directory = try TemporaryDirectory()
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: directory.file("junk.db")))
        let cases: [([String], Int32, String)] = [
            (["batch", "report"], 64, "missing required option '--ledger'"),
            (["batch", "report", "--ledger", "line.db"], 64, "names no ledger kind"),
            (["batch", "report", "--ledger", "sqlite:x.db", "extra"], 64, "unexpected argument 'extra'"),
            (["batch", "report", "--ledger", "sqlite:" + directory.file("missing.db")], 74, "no such file"),
            (["batch", "report", "--ledger", "sqlite:" + directory.file("junk.db")], 65, "SQLITE_NOTADB"),
            (["batch", "report", "--ledger", "postgresql://u:secret@127.0.0.1:1/db?connect_timeout=2"], 74,
             "ledger postgresql://u:***@127.0.0.1:1/db?connect_timeout=2: connect to the server:"),
        ]
        for (arguments, status, message) in cases {
            let result = try dfukit(arguments)
            XCTAssertEqual(result.status, status, result.transcript)
            XCTAssertEqual(result.stdout, "", result.transcript)
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("secret"), result.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.file("missing.db")), "report created a ledger")
    }
}
