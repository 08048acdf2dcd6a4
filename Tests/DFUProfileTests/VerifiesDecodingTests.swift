import DFUProfile
import XCTest

/// `verifies` on a `send` step: the device's success answer is its own check of the image
/// against a checksum it was sent (SUOTA's end command). It needs a command that is answered.
final class VerifiesDecodingTests: XCTestCase {
    private static let base = """
        profile: verifies
        characteristics:
          control: { service: FEED, uuid: F001, properties: [write, notify] }
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

    func testMistakesAreReportedAtTheirPlace() {
        let cases: [(String, String, String, String)] = [
            ("  - send: poke\n", "  - send: poke\n    verifies: true\n", "'verifies' needs an answer to check: command 'poke' has no response",
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
