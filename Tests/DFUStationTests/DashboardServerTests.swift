import DFUStation
import Foundation
import XCTest

/// The real server (libmicrohttpd) on 127.0.0.1, port 0, with a fake source, through sockets:
/// what a browser and a script see. The test methods are synchronous: their blocking reads must
/// not hold a thread of the task pool the server's answers run on.
final class DashboardServerTests: XCTestCase {
    private let source = FakeDashboardSource()
    private var servers: [DashboardServer] = []

    private func serve(token: String? = "s3cret-token", line: String? = nil,
                       timing: DashboardEventStream.Timing = .standard) throws -> DashboardServer {
        let configuration = DashboardServerConfiguration(listen: try ListenAddress(parsing: "127.0.0.1:0"),
                                                         token: try token.map { try AccessToken($0) }, line: line,
                                                         streamTiming: timing)
        let server = try DashboardServer(configuration: configuration, source: source)
        servers.append(server)
        return server
    }

    override func tearDown() {
        for server in servers { server.stop() }
        servers = []
        super.tearDown()
    }

    private func port(_ server: DashboardServer) -> UInt16 { server.address.port }

    func testReportsTheChosenPort() throws {
        let server = try serve()
        XCTAssertNotEqual(server.address.port, 0)
        XCTAssertEqual(server.address.url, "http://127.0.0.1:\(server.address.port)/")
    }

    func testServesThePageWithItsHooks() throws {
        let server = try serve()
        let page = try httpRequest("GET", "/", port: port(server))
        XCTAssertEqual(page.status, 200)
        XCTAssertEqual(page.headers["content-type"], "text/html; charset=utf-8")
        XCTAssertTrue(page.headers["content-security-policy"]?.contains("script-src 'self'") ?? false)
        for id in ["lines", "stations", "in-flight", "totals", "recent-attempts", "events", "device-history", "resume-form"] {
            XCTAssertTrue(page.text.contains("id=\"\(id)\""), "the page has #\(id)")
        }
        XCTAssertTrue(page.text.contains("<script src=\"/dashboard.js\" defer></script>"))
        XCTAssertFalse(page.text.contains("http://") || page.text.contains("https://"), "nothing from another origin")

        let script = try httpRequest("GET", "/dashboard.js", port: port(server))
        XCTAssertEqual(script.status, 200)
        XCTAssertEqual(script.headers["content-type"], "text/javascript; charset=utf-8")
        XCTAssertTrue(script.text.contains("new EventSource(url)"))
        let style = try httpRequest("GET", "/dashboard.css", port: port(server))
        XCTAssertEqual(style.headers["content-type"], "text/css; charset=utf-8")
        let head = try httpRequest("HEAD", "/", port: port(server))
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.headers["content-length"], page.headers["content-length"])
    }

    func testPassesTheSnapshotThroughWithItsLine() throws {
        source.snapshotJSON = Data(#"{"version":1,"generatedAt":"2026-12-02T20:45:00.000Z","marker":"fake"}"#.utf8)
        let server = try serve(line: "east")
        let answer = try httpRequest("GET", "/api/snapshot", port: port(server))
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.headers["content-type"], "application/json; charset=utf-8")
        XCTAssertEqual(answer.body, source.snapshotJSON)
        _ = try httpRequest("GET", "/api/snapshot?line=hall%202", port: port(server))
        XCTAssertEqual(source.snapshotCalls.map(\.line), ["east", "hall 2"], "the query is decoded")
        XCTAssertEqual(source.snapshotCalls.map(\.controlsEnabled), [true, true])
    }

    func testDeviceHistoryAndA404ForAnUnknownDevice() throws {
        source.setHistory(#"{"device":"C0:FF:EE:00:00:09","live":null,"attempts":[],"events":[]}"#, for: "C0:FF:EE:00:00:09")
        let server = try serve()
        // The page encodes the address (encodeURIComponent): the server decodes it.
        let known = try httpRequest("GET", "/api/devices/C0%3AFF%3AEE%3A00%3A00%3A09", port: port(server))
        XCTAssertEqual(known.status, 200)
        XCTAssertEqual(try known.json()["device"] as? String, "C0:FF:EE:00:00:09")
        let unknown = try httpRequest("GET", "/api/devices/C0:FF:EE:00:00:42", port: port(server))
        XCTAssertEqual(unknown.status, 404)
        XCTAssertEqual(unknown.headers["content-type"], "application/json; charset=utf-8")
        XCTAssertEqual(try unknown.json()["error"] as? String, "the ledger has no attempt of device C0:FF:EE:00:00:42")
        let nowhere = try httpRequest("GET", "/nowhere", port: port(server))
        XCTAssertEqual(nowhere.status, 404)
        XCTAssertNotNil(try nowhere.json()["error"] as? String)
    }

    func testTheResumeControl() throws {
        let server = try serve()
        let body = Data(#"{"operator":"ann","reason":"fixture reseated"}"#.utf8)
        let path = "/api/lines/east/resume"
        let json = ["Content-Type": "application/json"]

        let anonymous = try httpRequest("POST", path, port: port(server), headers: json, body: body)
        XCTAssertEqual(anonymous.status, 401)
        XCTAssertNotNil(try anonymous.json()["error"] as? String)

        let wrong = try httpRequest("POST", path, port: port(server), headers: json.merging(["Authorization": "Bearer nope"]) { $1 },
                                    body: body)
        XCTAssertEqual(wrong.status, 401)

        let authorized = json.merging(["Authorization": "Bearer s3cret-token"]) { $1 }
        let noOperator = try httpRequest("POST", path, port: port(server), headers: authorized, body: Data(#"{"reason":"x"}"#.utf8))
        XCTAssertEqual(noOperator.status, 400)
        XCTAssertEqual(try noOperator.json()["error"] as? String,
                       "the body has no operator: say who you are, send {\"operator\": \"NAME\", \"reason\": \"TEXT\"}")
        XCTAssertTrue(source.controls.isEmpty)

        let recorded = try httpRequest("POST", path, port: port(server), headers: authorized, body: body)
        XCTAssertEqual(recorded.status, 200)
        XCTAssertEqual(try recorded.json()["recorded"] as? Bool, true)
        XCTAssertEqual(source.controls, [.init(kind: "resume", target: "east", operatorName: "ann", reason: "fixture reseated")])

        source.controlAnswer = false
        let nothing = try httpRequest("POST", path, port: port(server), headers: authorized, body: body)
        XCTAssertEqual(nothing.status, 409)
        XCTAssertEqual(try nothing.json()["recorded"] as? Bool, false)
        XCTAssertEqual(try nothing.json()["error"] as? String, "line east is not halted: nothing recorded")
    }

    func testAReleaseWithABodyInManyPieces() throws {
        let server = try serve()
        // A body sent in two pieces, 50 ms apart, arrives in two calls of the access handler.
        let connection = try TestHTTPConnection(port: port(server))
        let body = Data(#"{"operator":"bob","reason":"\#(String(repeating: "r", count: 900))"}"#.utf8)
        try connection.send("POST", "/api/devices/C0%3AFF%3AEE%3A00%3A00%3A07/release",
                            headers: ["Authorization": "Bearer s3cret-token", "Content-Type": "application/json"], body: body,
                            pause: 0.05)
        let (status, headers) = try connection.readHead()
        let answer = try connection.readBody(contentLength: headers["content-length"].flatMap(Int.init))
        XCTAssertEqual(status, 200, String(decoding: answer, as: UTF8.self))
        XCTAssertEqual(source.controls.map(\.target), ["C0:FF:EE:00:00:07"])
        XCTAssertEqual(source.controls.first?.reason?.count, 900)
    }

    func testATooLargeBodyIs413() throws {
        let server = try serve()
        let answer = try httpRequest("POST", "/api/lines/east/resume", port: port(server),
                                     headers: ["Authorization": "Bearer s3cret-token"],
                                     body: Data(String(repeating: "x", count: 20_000).utf8))
        XCTAssertEqual(answer.status, 413)
        XCTAssertNotNil(try answer.json()["error"] as? String)
        XCTAssertTrue(source.controls.isEmpty)
    }

    func testAControlOnAServerWithoutTokenIs403() throws {
        let server = try serve(token: nil)
        let answer = try httpRequest("POST", "/api/lines/east/resume", port: port(server),
                                     headers: ["Authorization": "Bearer s3cret-token"], body: Data(#"{"operator":"ann"}"#.utf8))
        XCTAssertEqual(answer.status, 403)
        XCTAssertNotNil(try answer.json()["error"] as? String)
        XCTAssertTrue(source.controls.isEmpty)
    }

    // MARK: Server-sent events

    private func openEvents(_ server: DashboardServer, query: String = "") throws -> TestHTTPConnection {
        let connection = try TestHTTPConnection(port: port(server))
        try connection.send("GET", "/events" + query, headers: ["Accept": "text/event-stream"])
        let (status, headers) = try connection.readHead()
        XCTAssertEqual(status, 200)
        XCTAssertEqual(headers["content-type"], "text/event-stream; charset=utf-8")
        XCTAssertEqual(try connection.nextEvent(), "retry: 2000")
        return connection
    }

    private func waitUntil(_ what: String, timeout: TimeInterval = 5, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            guard Date() < deadline else { return XCTFail("not within \(timeout) s: \(what)") }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    func testEventsSendTheSnapshotAtOnceAndAfterAChange() throws {
        source.snapshotJSON = Data("{\"version\":1,\n\"n\":1}".utf8)
        let server = try serve()
        let started = Date()
        let connection = try openEvents(server, query: "?line=east")
        XCTAssertEqual(try connection.nextEvent(), "event: snapshot\ndata: {\"version\":1, \"n\":1}")
        XCTAssertLessThan(Date().timeIntervalSince(started), 1, "at once")
        XCTAssertEqual(source.snapshotCalls.last?.line, "east")

        waitUntil("the stream waits for a change") { source.waiting > 0 }
        source.snapshotJSON = Data(#"{"version":1,"n":2}"#.utf8)
        source.change()
        XCTAssertEqual(try connection.nextEvent(), "event: snapshot\ndata: {\"version\":1,\"n\":2}")
        XCTAssertEqual(server.openEventStreams, 1)
    }

    func testKeepAliveComments() throws {
        let server = try serve(timing: DashboardEventStream.Timing(minimumInterval: .milliseconds(250), keepAlive: .milliseconds(100),
                                                                   afterFailure: .seconds(5), reconnect: .seconds(2)))
        let connection = try openEvents(server)
        XCTAssertTrue(try connection.nextEvent()?.hasPrefix("event: snapshot") ?? false)
        XCTAssertEqual(try connection.nextEvent(), ": keep-alive")
    }

    func testAClosedClientFreesItsStream() throws {
        let server = try serve()
        let connection = try openEvents(server)
        _ = try connection.nextEvent()
        waitUntil("the stream is open and waiting") { server.openEventStreams == 1 && source.waiting == 1 }
        XCTAssertEqual(server.openConnections, 1)
        connection.close()
        // No keep-alive needed: the hang-up is seen at once; the task, the wait and the thread end.
        waitUntil("the stream is freed", timeout: 2) {
            server.openEventStreams == 0 && source.waiting == 0 && server.openConnections == 0
        }
    }

    func testAClientThatDoesNotReadIsDropped() throws {
        // 1 MiB snapshots to a client that reads nothing: once the socket buffers are full and
        // 4 MiB wait in the queue, the stream ends (the memory a slow client holds is bounded).
        source.snapshotJSON = Data(("{\"padding\":\"" + String(repeating: "x", count: 1 << 20) + "\"}").utf8)
        let server = try serve(timing: DashboardEventStream.Timing(minimumInterval: .milliseconds(1), keepAlive: .seconds(15),
                                                                   afterFailure: .seconds(5), reconnect: .seconds(2)))
        let connection = try TestHTTPConnection(port: port(server))
        try connection.send("GET", "/events")
        waitUntil("the stream is open") { server.openEventStreams == 1 }
        let deadline = Date().addingTimeInterval(20)
        while server.openEventStreams > 0, Date() < deadline {
            source.change()
            Thread.sleep(forTimeInterval: 0.01)
        }
        XCTAssertEqual(server.openEventStreams, 0, "the stream of a client that reads nothing ended")
        waitUntil("its connection (and thread) is closed before it reads", timeout: 2) { server.openConnections == 0 }
        // The connection is closed: reading what was buffered ends.
        var pieces = 0
        do {
            _ = try connection.readHead()
            while try connection.readBodyPiece() != nil { pieces += 1 }
        } catch {
            // A reset connection is a closed one too; a read that times out is not.
            XCTAssertFalse("\(error)".contains("no answer in time"), "the server kept the connection open: \(error)")
        }
        XCTAssertGreaterThan(pieces, 0)
    }

    func testStopEndsOpenStreamsPromptly() throws {
        let server = try serve()
        let connection = try openEvents(server)
        _ = try connection.nextEvent()
        let started = Date()
        server.stop()
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
        XCTAssertNil(try connection.nextEvent(), "the stream ended")
        XCTAssertThrowsError(try TestHTTPConnection(port: port(server)), "nothing listens any more")
    }

    // MARK: Listening

    func testRefusesAnAddressOffTheLoopbackWithoutAToken() throws {
        let configuration = DashboardServerConfiguration(listen: try ListenAddress(parsing: "0.0.0.0:0"))
        XCTAssertThrowsError(try DashboardServer(configuration: configuration, source: source)) { error in
            XCTAssertEqual((error as? DashboardServerError)?.kind, .tokenRequired)
            XCTAssertTrue("\(error)".contains("give the server a token, or listen on the loopback (127.0.0.1)"), "\(error)")
        }
    }

    func testAPortInUseSaysSo() throws {
        let first = try serve()
        let configuration = DashboardServerConfiguration(listen: try ListenAddress(parsing: "127.0.0.1:\(first.address.port)"))
        XCTAssertThrowsError(try DashboardServer(configuration: configuration, source: source)) { error in
            XCTAssertEqual((error as? DashboardServerError)?.kind, .cannotListen)
            XCTAssertEqual("\(error)", "cannot bind on 127.0.0.1:\(first.address.port): Address already in use; another program "
                           + "(or another dashboard) listens there: stop it or choose another port")
        }
    }
}
