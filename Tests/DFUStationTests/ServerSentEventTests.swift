import DFUStation
import Foundation
import XCTest

/// The `text/event-stream` messages, byte for byte.
final class ServerSentEventTests: XCTestCase {
    private func text(_ event: ServerSentEvent) -> String { String(decoding: event.encoded, as: UTF8.self) }

    func testEncodesEventsCommentsAndRetry() {
        XCTAssertEqual(text(.event(name: "snapshot", data: Data(#"{"a":1}"#.utf8))), "event: snapshot\ndata: {\"a\":1}\n\n")
        XCTAssertEqual(text(.keepAlive), ": keep-alive\n\n")
        XCTAssertEqual(text(.retry(milliseconds: 2000)), "retry: 2000\n\n")
    }

    func testTheDataIsOneLine() throws {
        let pretty = Data("{\n  \"a\" : 1,\r\n  \"b\" : \"x\\ny\"\n}".utf8)
        let encoded = text(.event(name: "snapshot", data: pretty))
        XCTAssertEqual(encoded.filter { $0 == "\n" }.count, 3, "event, data, blank line: \(encoded)")
        let data = try XCTUnwrap(encoded.split(separator: "\n").first { $0.hasPrefix("data: ") }).dropFirst(6)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
        XCTAssertEqual(object["b"] as? String, "x\ny", "an escaped line break inside a string is kept")
    }
}
