import DFUStation
import Foundation
import XCTest

/// The page's text: the hooks a browser test finds, no HTML made from strings, and a script
/// that parses (`node --check`, when node is installed).
final class DashboardPageTests: XCTestCase {
    private var script: String { DashboardPage.text(of: .script) }

    func testTheScriptSetsTheHooksABrowserTestReads() {
        for hook in ["dataset: { total: key }", "document.body.dataset.snapshots", "document.body.dataset.generatedAt",
                     "dataset: { line: text(line.name), state: text(line.state) }",
                     "dataset: { station: text(station.name), state: text(station.state)",
                     "dataset: { device: text(device.device)", "dataset: { device: text(attempt.device)",
                     "new EventSource(url)", "'/events'", "sessionStorage", "'Bearer ' + token",
                     "fetch('/api/devices/' + encodeURIComponent(address)"] {
            XCTAssertTrue(script.contains(hook), hook)
        }
        for counter in ["devices", "done", "failed", "inFlight", "quarantined", "attempts"] {
            XCTAssertTrue(script.contains("['\(counter)', "), counter)
        }
    }

    func testNoMarkupIsMadeFromText() {
        for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"] {
            XCTAssertFalse(script.contains(sink), "the script uses \(sink)")
        }
        XCTAssertFalse(DashboardPage.text(of: .page).contains("<script>"), "no inline script (the policy forbids it)")
        XCTAssertFalse(DashboardPage.text(of: .page).contains("style=\""), "no inline style")
    }

    func testTheScriptParses() throws {
        let node = ["/usr/bin/node", "/usr/local/bin/node"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let node else { throw XCTSkip("node is not installed: the script's syntax is not checked") }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("dashboard-\(UUID().uuidString).js")
        try script.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: node)
        process.arguments = ["--check", file.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 0, message)
    }
}
