import DFUProfile
import XCTest

/// `verifies` on a `send` step: the device's success answer is its own check of the image
/// against a checksum it was sent (SUOTA's end command) or one the image carries (a GBL's
/// end-tag CRC, answered by the ATT write response). It needs a command that is answered: by a
/// response, or by the write response of a characteristic written with response.
final class VerifiesDecodingTests: XCTestCase {
    private static let base = """
        profile: verifies
        characteristics:
          control: { service: FEED, uuid: F001, properties: [write, notify] }
          data: { service: FEED, uuid: F002, properties: [write-without-response] }
        commands:
          end:
            characteristic: control
            request: [{ type: u8, value: 0xFE }]
            response:
              fields: [{ name: status, type: u8 }]
              status: { field: status, success: [0x02] }
          poke:
            characteristic: control
            request: [{ type: u8, value: 0x01 }]
          push:
            characteristic: data
            request: [{ type: u8, value: 0x03 }]
        procedure:
          - send: poke
          - send: end
            verifies: true
        """

    func testItDecodesAndDefaultsToFalse() throws {
        let profile = try ProfileLoader.load(text: Self.base, path: "verifies.yaml")
        guard case let .send(poke) = profile.procedure[0].kind, case let .send(end) = profile.procedure[1].kind else {
            return XCTFail("expected two sends")
        }
        XCTAssertFalse(poke.verifies)
        XCTAssertTrue(end.verifies)
    }

    /// A command without a response on a characteristic written with response is answered by
    /// the ATT write response (Silicon Labs' AppLoader answers 0x03 so, or with an ATT error).
    func testACommandAnsweredByItsWriteResponseMayVerify() throws {
        let text = Self.base.replacingOccurrences(of: "  - send: poke\n", with: "  - send: poke\n    verifies: true\n")
        let profile = try ProfileLoader.load(text: text, path: "verifies.yaml")
        guard case let .send(poke) = profile.procedure[0].kind else { return XCTFail("expected a send") }
        XCTAssertTrue(poke.verifies)
    }

    func testMistakesAreReportedAtTheirPlace() {
        let cases: [(String, String, String, String)] = [
            ("  - send: poke\n", "  - send: push\n    verifies: true\n",
             "'verifies' needs an answer to check: command 'push' has no response and its characteristic is written without response",
             "verifies: true"),
            ("verifies: true", "verifies: yes please", "'verifies' must be", "verifies: yes please"),
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
