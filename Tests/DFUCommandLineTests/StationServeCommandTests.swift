import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// `dfukit station serve` as an operator meets it: the one line saying where the dashboard is,
/// the page and a control over HTTP (curl's client, through URLSession), a clean stop on SIGTERM,
/// and the refusals (an address off the loopback without a token, an empty token).
final class StationServeCommandTests: XCTestCase {
    private struct Answer {
        var status: Int
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: [String: Any]? { try? JSONSerialization.jsonObject(with: body) as? [String: Any] }
    }

    /// One request through URLSession, waited for.
    private func request(_ url: URL, method: String = "GET", token: String? = nil, body: String? = nil) throws -> Answer {
        var request = URLRequest(url: url, timeoutInterval: 10)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(body.utf8)
        }
        final class Box: @unchecked Sendable { var answer: Answer?; var error: (any Error)? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, response, error in
            box.error = error
            if let response = response as? HTTPURLResponse { box.answer = Answer(status: response.statusCode, body: data ?? Data()) }
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + 15) == .success else { throw ProcessFailure(description: "no answer from \(url)") }
        if let error = box.error { throw error }
        return try XCTUnwrap(box.answer)
    }

    private func rows(_ ledger: String, _ sql: String) throws -> [[String]] {
        let script = """
            import json, sqlite3, sys
            print(json.dumps([[str(v) for v in row] for row in sqlite3.connect(sys.argv[1]).execute(sys.argv[2])]))
            """
        let output = try Subprocess.tool("python3", ["-c", script, ledger, sql])
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String]])
    }

    func testServesTheDashboardAndItsControlsUntilSIGTERM() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 4_000)
        let ledger = directory.file("line.sqlite")
        // Devices 1 and 2 of this fleet fail: the line halts.
        let batch = try DFUKitBinary.run(["batch", "run", "--profile", DFUKitBinary.shippedProfile, "--package", package,
                                          "--device", "sim:vendor-ctrlpt?\(LineControlCommandTests.fleet)", "--ledger", "sqlite:\(ledger)",
                                          "--station", "s1", "--line", "east", "--retries", "0",
                                          "--halt-when", "failed >= 2 of last 3", "--exit-when-halted"], in: directory.path)
        XCTAssertEqual(batch.status, 75, batch.transcript)
        let tokenFile = try directory.write("token", text: "line-token\n")

        let capture = try CapturedOutput(prefix: "dfukit-serve")
        let (process, finished) = capture.process(try DFUKitBinary.located.get(),
                                                  ["station", "serve", "--ledger", "sqlite:\(ledger)", "--listen", "127.0.0.1:0",
                                                   "--token-file", tokenFile])
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let deadline = Date().addingTimeInterval(15)
        while !capture.stdoutSoFar.hasSuffix("\n"), process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        let line = capture.stdoutSoFar
        let prefix = "dashboard: http://127.0.0.1:"
        XCTAssertTrue(line.hasPrefix(prefix) && line.hasSuffix("/\n"), "\(line)\n\(capture.stderrSoFar)")
        let port = try XCTUnwrap(Int(line.dropFirst(prefix.count).dropLast(2)), line)
        XCTAssertGreaterThan(port, 0)
        let base = try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)/"))

        let page = try request(base)
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.text.contains("id=\"resume-form\""), page.text)
        let snapshot = try request(base.appendingPathComponent("api/snapshot"))
        XCTAssertNotNil(snapshot.json, "JSON, whatever the source answers: \(snapshot.text)")

        let resume = base.appendingPathComponent("api/lines/east/resume")
        let body = #"{"operator":"ann","reason":"fixture reseated"}"#
        XCTAssertEqual(try request(resume, method: "POST", body: body).status, 401)
        let resumed = try request(resume, method: "POST", token: "line-token", body: body)
        XCTAssertEqual(resumed.status, 200, resumed.text)
        XCTAssertEqual(resumed.json?["recorded"] as? Bool, true)
        let again = try request(resume, method: "POST", token: "line-token", body: body)
        XCTAssertEqual(again.status, 409, again.text)
        XCTAssertEqual(again.json?["error"] as? String, "line east is not halted: nothing recorded")
        XCTAssertEqual(try rows(ledger, "SELECT kind, line, operator, reason FROM dfukit_line_events WHERE kind = 'resumed'"),
                       [["resumed", "east", "ann", "fixture reseated"]])

        kill(process.processIdentifier, SIGTERM)
        XCTAssertEqual(finished.wait(timeout: .now() + 5), .success, "stopped within 5 s of SIGTERM")
        let result = try capture.result(of: process)
        XCTAssertEqual(result.status, 0, result.transcript)
        XCTAssertEqual(result.stdoutLines.count, 1, result.transcript)
        XCTAssertEqual(result.stderrLines, ["serving the ledger sqlite:\(ledger) with the line controls on; Ctrl-C stops"],
                       result.transcript)
    }

    func testRefusesAnAddressOffTheLoopbackWithoutAToken() throws {
        let directory = try TemporaryDirectory()
        var environment = ProcessInfo.processInfo.environment
        environment["DFUKIT_STATION_TOKEN"] = nil
        let result = try Subprocess.run(try DFUKitBinary.located.get(),
                                        ["station", "serve", "--ledger", "sqlite:\(directory.file("l.sqlite"))", "--listen", "0.0.0.0:0"],
                                        environment: environment)
        XCTAssertEqual(result.status, 64, result.transcript)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderrLines, [
            "error: refusing to serve the dashboard on 0.0.0.0:0 without a token: that address is reachable from other machines, "
                + "and the line controls must be guarded there; give the server a token, or listen on the loopback (127.0.0.1)",
            "Give --token-file FILE (or set DFUKIT_STATION_TOKEN), or listen on the loopback: --listen 127.0.0.1:0.",
            "See 'dfukit station serve --help'.",
        ], result.transcript)
    }

    func testRefusesAnEmptyTokenAndAnUnreadableTokenFile() throws {
        let directory = try TemporaryDirectory()
        let empty = try directory.write("token", text: "\n")
        let ledger = "sqlite:\(directory.file("l.sqlite"))"
        let emptyResult = try DFUKitBinary.run(["station", "serve", "--ledger", ledger, "--listen", "127.0.0.1:0", "--token-file", empty])
        XCTAssertEqual(emptyResult.status, 64, emptyResult.transcript)
        XCTAssertEqual(emptyResult.stderrLines.first, "error: the token file \(empty) has no token on its first line: "
                       + "write the token there (e.g. 'openssl rand -hex 24 > \(empty)')", emptyResult.transcript)
        let missing = directory.file("missing")
        let missingResult = try DFUKitBinary.run(["station", "serve", "--ledger", ledger, "--token-file", missing])
        XCTAssertEqual(missingResult.status, 74, missingResult.transcript)
        XCTAssertEqual(missingResult.stderrLines, ["error: cannot read the token file \(missing): No such file or directory; "
                                                   + "check the path and that this user may read it"], missingResult.transcript)
        let listen = try DFUKitBinary.run(["station", "serve", "--ledger", ledger, "--listen", "line-pc:8080"])
        XCTAssertEqual(listen.status, 64, listen.transcript)
        XCTAssertTrue(listen.stderr.hasPrefix("error: --listen 'line-pc:8080' is not an address to listen on"), listen.transcript)
    }
}
