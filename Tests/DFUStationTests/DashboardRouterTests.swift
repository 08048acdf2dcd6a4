import DFUStation
import Foundation
import XCTest

/// The router without sockets: the source's JSON passed through, the error answers as JSON, and
/// the controls' order of checks (403, 401, 400, then the source: 200 or 409).
final class DashboardRouterTests: XCTestCase {
    private let source = FakeDashboardSource()
    private let token = try! AccessToken("s3cret-token")

    private func router(token: AccessToken?, line: String? = nil) -> DashboardRouter {
        DashboardRouter(source: source, token: token, defaultLine: line)
    }

    private func json(_ response: HTTPResponse, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        XCTAssertEqual(response.header("Content-Type"), "application/json; charset=utf-8", file: file, line: line)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: response.bodyBytes) as? [String: Any], file: file, line: line)
    }

    private func post(_ path: String, authorization: String? = nil, body: String?) -> HTTPRequest {
        HTTPRequest(method: .post, path: path, headers: authorization.map { ["Authorization": $0] } ?? [:],
                    body: Data((body ?? "").utf8))
    }

    func testSnapshotIsTheSourcesJSONWithTheRequestedOrDefaultLine() async throws {
        source.snapshotJSON = Data(#"{"version":1,"marker":"from the fake"}"#.utf8)
        let answer = await router(token: token, line: "east").respond(to: HTTPRequest(method: .get, path: "/api/snapshot"))
        XCTAssertEqual(answer.status, .ok)
        XCTAssertEqual(answer.bodyBytes, source.snapshotJSON, "passed through byte for byte")
        XCTAssertEqual(answer.header("Cache-Control"), "no-store")
        let named = await router(token: nil, line: "east").respond(to: HTTPRequest(method: .get, path: "/api/snapshot",
                                                                                   query: ["line": "west"]))
        XCTAssertEqual(named.status, .ok)
        XCTAssertEqual(source.snapshotCalls.map(\.line), ["east", "west"])
        XCTAssertEqual(source.snapshotCalls.map(\.controlsEnabled), [true, false], "controls.enabled is whether there is a token")
    }

    func testASourceThatCannotAnswerGives503WithItsWords() async throws {
        source.snapshotFailure = DashboardSourceError(.unavailable, "dashboard data not wired yet")
        let answer = await router(token: nil).respond(to: HTTPRequest(method: .get, path: "/api/snapshot"))
        XCTAssertEqual(answer.status, .serviceUnavailable)
        XCTAssertEqual(try json(answer)["error"] as? String, "dashboard data not wired yet")
    }

    func testDeviceHistoryOr404() async throws {
        source.setHistory(#"{"device":"C0:FF:EE:00:00:09","attempts":[]}"#, for: "C0:FF:EE:00:00:09")
        let known = await router(token: nil).respond(to: HTTPRequest(method: .get, path: "/api/devices/C0:FF:EE:00:00:09"))
        XCTAssertEqual(known.status, .ok)
        XCTAssertEqual(try json(known)["device"] as? String, "C0:FF:EE:00:00:09")
        let unknown = await router(token: nil).respond(to: HTTPRequest(method: .get, path: "/api/devices/C0:FF:EE:00:00:0A"))
        XCTAssertEqual(unknown.status, .notFound)
        XCTAssertEqual(try json(unknown)["error"] as? String, "the ledger has no attempt of device C0:FF:EE:00:00:0A")
    }

    func testUnknownPathsAndWrongMethodsAreJSONErrors() async throws {
        let missing = await router(token: nil).respond(to: HTTPRequest(method: .get, path: "/nowhere"))
        XCTAssertEqual(missing.status, .notFound)
        XCTAssertTrue((try json(missing)["error"] as? String ?? "").hasPrefix("no such page: /nowhere"))
        let wrong = await router(token: token).respond(to: HTTPRequest(method: .get, path: "/api/lines/east/resume"))
        XCTAssertEqual(wrong.status, .methodNotAllowed)
        XCTAssertEqual(wrong.header("Allow"), "POST")
        XCTAssertNotNil(try json(wrong)["error"] as? String)
        let postPage = await router(token: token).respond(to: HTTPRequest(method: .post, path: "/"))
        XCTAssertEqual(postPage.status, .methodNotAllowed)
        XCTAssertEqual(postPage.header("Allow"), "GET, HEAD")
        XCTAssertTrue(source.controls.isEmpty)
    }

    func testPageStyleAndScriptAreServed() async throws {
        let page = await router(token: nil).respond(to: HTTPRequest(method: .get, path: "/"))
        XCTAssertEqual(page.status, .ok)
        XCTAssertEqual(page.header("Content-Type"), "text/html; charset=utf-8")
        XCTAssertNotNil(page.header("Content-Security-Policy"))
        let script = await router(token: nil).respond(to: HTTPRequest(method: .get, path: "/dashboard.js"))
        XCTAssertEqual(script.header("Content-Type"), "text/javascript; charset=utf-8")
        let style = await router(token: nil).respond(to: HTTPRequest(method: .head, path: "/dashboard.css"))
        XCTAssertEqual(style.header("Content-Type"), "text/css; charset=utf-8")
    }

    func testEventsAnswerWithAStream() async throws {
        let answer = await router(token: nil, line: "east").respond(to: HTTPRequest(method: .get, path: "/events"))
        XCTAssertEqual(answer.status, .ok)
        XCTAssertEqual(answer.header("Content-Type"), "text/event-stream; charset=utf-8")
        guard case .eventStream(let stream) = answer.body else { return XCTFail("not a stream") }
        XCTAssertEqual(stream.line, "east")
        XCTAssertFalse(stream.controlsEnabled)
    }

    // MARK: Controls

    func testAControlOnAServerWithoutTokenIs403() async throws {
        let answer = await router(token: nil).respond(to: post("/api/lines/east/resume", authorization: "Bearer s3cret-token",
                                                               body: #"{"operator":"ann"}"#))
        XCTAssertEqual(answer.status, .forbidden)
        XCTAssertTrue((try json(answer)["error"] as? String ?? "").contains("without a token"))
        XCTAssertTrue(source.controls.isEmpty)
    }

    func testAControlWithoutTheRightTokenIs401() async throws {
        for authorization in [nil, "Bearer wrong", "Bearer s3cret-token-and-more", "Basic s3cret-token", "s3cret-token", "Bearer "] {
            let answer = await router(token: token).respond(to: post("/api/lines/east/resume", authorization: authorization,
                                                                     body: #"{"operator":"ann"}"#))
            XCTAssertEqual(answer.status, .unauthorized, "\(authorization ?? "no header")")
            XCTAssertEqual(answer.header("WWW-Authenticate"), "Bearer realm=\"dfukit station\"")
            XCTAssertNotNil(try json(answer)["error"] as? String)
        }
        XCTAssertTrue(source.controls.isEmpty, "nothing reached the ledger")
    }

    func testAControlWithoutAnOperatorIs400() async throws {
        for body in [nil, "not json", "[]", #"{"reason":"fixture"}"#, #"{"operator":"  "}"#, #"{"operator":7}"#,
                     #"{"operator":"ann","reason":5}"#] {
            let answer = await router(token: token).respond(to: post("/api/lines/east/resume", authorization: "Bearer s3cret-token",
                                                                     body: body))
            XCTAssertEqual(answer.status, .badRequest, body ?? "no body")
            XCTAssertNotNil(try json(answer)["error"] as? String)
        }
        XCTAssertTrue(source.controls.isEmpty)
    }

    func testAResumeWithTheTokenIsRecordedWithItsOperator() async throws {
        let answer = await router(token: token).respond(to: post("/api/lines/east/resume", authorization: "bearer  s3cret-token ",
                                                                 body: #"{"operator":" ann ","reason":"fixture reseated"}"#))
        XCTAssertEqual(answer.status, .ok)
        XCTAssertEqual(String(decoding: answer.bodyBytes, as: UTF8.self), #"{"recorded":true}"#)
        XCTAssertEqual(source.controls, [.init(kind: "resume", target: "east", operatorName: "ann", reason: "fixture reseated")])
    }

    func testAControlWithNothingToDoIs409() async throws {
        source.controlAnswer = false
        let resume = await router(token: token).respond(to: post("/api/lines/east/resume", authorization: "Bearer s3cret-token",
                                                                 body: #"{"operator":"ann","reason":null}"#))
        XCTAssertEqual(resume.status, .conflict)
        let body = try json(resume)
        XCTAssertEqual(body["recorded"] as? Bool, false)
        XCTAssertEqual(body["error"] as? String, "line east is not halted: nothing recorded")
        let release = await router(token: token).respond(to: post("/api/devices/C0:FF:EE:00:00:07/release",
                                                                  authorization: "Bearer s3cret-token", body: #"{"operator":"bob"}"#))
        XCTAssertEqual(release.status, .conflict)
        XCTAssertEqual(try json(release)["error"] as? String, "C0:FF:EE:00:00:07 is not quarantined: nothing recorded")
        XCTAssertEqual(source.controls.map(\.kind), ["resume", "release"])
        XCTAssertEqual(source.controls.map(\.reason), [nil, nil])
    }

    func testAReleaseOfSomethingThatIsNotAnAddressIs400() async throws {
        let answer = await router(token: token).respond(to: post("/api/devices/printer/release", authorization: "Bearer s3cret-token",
                                                                 body: #"{"operator":"bob"}"#))
        XCTAssertEqual(answer.status, .badRequest)
        XCTAssertEqual(try json(answer)["error"] as? String, "'printer' is not a device address like C0:FF:EE:00:00:01")
        XCTAssertTrue(source.controls.isEmpty)
    }
}
