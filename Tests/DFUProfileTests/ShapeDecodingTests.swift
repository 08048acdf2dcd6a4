import DFUProfile
import XCTest

/// `serve`, `await` with several notifications, `read`, `write-interval` and `subscribe:
/// indications` decode into the model, and their mistakes are reported at their place.
final class ShapeDecodingTests: XCTestCase {
    private static let base = """
        profile: shapes
        characteristics:
          control: { service: FEED, uuid: F001, properties: [write, notify, indicate], subscribe: indications }
          blocks: { service: FEED, uuid: F002, properties: [write-without-response], write-interval: 6ms }
          revision: { service: 180A, uuid: 2A26, properties: [read] }
        notifications:
          request: { characteristic: control, fields: [{ type: u8, value: 0x81 }, { name: number, type: u16 }] }
          done: { characteristic: control, fields: [{ type: u8, value: 0x82 }] }
        commands:
          put:
            characteristic: blocks
            request: [{ type: u16, value: piece.index }, { type: bytes, value: piece.data }]
        procedure:
          - serve:
              request: request
              done: done
              block: request.number
              size: 20
              data: image.data
              as: piece
              timeout: 3s
              progress: false
              steps:
                - send: put
          - await: [request, done]
          - read: revision
            as: fw
            expect: fw.size > 0
        """

    func testTheyDecode() throws {
        let profile = try ProfileLoader.load(text: Self.base, path: "shapes.yaml")
        XCTAssertEqual(profile.characteristic(named: "control")?.prefersIndications, true)
        XCTAssertEqual(profile.characteristic(named: "control")?.subscribe, true)
        XCTAssertEqual(profile.characteristic(named: "blocks")?.writeInterval, .milliseconds(6))
        XCTAssertNil(profile.characteristic(named: "revision")?.writeInterval)
        guard case let .serve(loop) = profile.procedure[0].kind, case let .await(wait) = profile.procedure[1].kind,
              case let .read(read) = profile.procedure[2].kind else { return XCTFail("expected serve, await, read") }
        XCTAssertEqual(loop.request, "request")
        XCTAssertEqual(loop.done, "done")
        XCTAssertNil(loop.until)
        XCTAssertEqual(loop.block.text, "request.number")
        XCTAssertEqual(loop.alias, "piece")
        XCTAssertEqual(loop.timeout, .seconds(3))
        XCTAssertFalse(loop.reportsProgress)
        XCTAssertEqual(loop.steps.count, 1)
        XCTAssertEqual(wait.notifications, ["request", "done"])
        XCTAssertEqual(read.characteristic, "revision")
        XCTAssertEqual(read.alias, "fw")
        XCTAssertEqual(read.expect.map(\.text), ["fw.size > 0"])
    }

    func testMistakesAreReportedAtTheirPlace() {
        // (original text, replacement, expected error, the text at the error's line)
        let cases: [(String, String, String, String)] = [
            ("      done: done\n", "", "'serve' needs 'done'", "request: request"),
            ("request: request\n", "request: nothing\n", "unknown notification 'nothing'", "request: nothing"),
            ("  - await: [request, done]", "  - await: [request, done]\n    as: both", "'as' names one notification", "as: both"),
            ("  - read: revision", "  - read: revison", "unknown characteristic 'revison'", "read: revison"),
            ("write-interval: 6ms", "write-interval: 6", "'write-interval' must be a duration", "write-interval: 6"),
            ("subscribe: indications", "subscribe: sometimes", "'subscribe' (true, false, notifications or indications)",
             "subscribe: sometimes"),
            ("expect: fw.size > 0", "expect: fw.length > 0", "'fw' has no field 'length'", "fw.length"),
        ]
        for (original, replacement, expected, needle) in cases {
            let text = Self.base.replacingOccurrences(of: original, with: replacement)
            XCTAssertNotEqual(text, Self.base, original)
            let errors = loadErrors(text)
            XCTAssertTrue(errors.contains { $0.contains(expected) }, "\(replacement): \(errors)")
            let place = position(of: needle, in: text)
            XCTAssertTrue(errors.contains { $0.hasPrefix("mini.yaml:\(place.line):") }, "\(replacement) at line \(place.line): \(errors)")
        }
    }
}
