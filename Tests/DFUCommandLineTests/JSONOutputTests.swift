@testable import DFUCommandLine
import Foundation
import XCTest

/// The command line's one JSON emitter: Foundation-style values through the library's
/// `JSONValue`, keys sorted, one line, numbers as JSON readers expect them.
final class JSONOutputTests: XCTestCase {
    func testValuesOfEveryKindOnOneLineWithSortedKeys() {
        let missing: Int? = nil
        let object: [String: Any] = [
            "zeta": true, "alpha": 1, "mid": 7.5, "whole": 15.0, "tiny": 0.1, "none": NSNull(), "absent": missing as Any,
            "text": "a \"quoted\" path/to\nline", "list": [1, "two", false], "nested": ["b": 2, "a": [Double.nan]],
            "big": UInt64.max, "byte": UInt8(7),
        ]
        XCTAssertEqual(JSONOutput.line(object), """
            {"absent":null,"alpha":1,"big":18446744073709551615,"byte":7,"list":[1,"two",false],"mid":7.5,\
            "nested":{"a":[null],"b":2},"none":null,"text":"a \\"quoted\\" path/to\\nline","tiny":0.1,"whole":15,"zeta":true}
            """)
    }

    func testABooleanIsNeverAnIntegerNorTheOtherWayRound() {
        XCTAssertEqual(JSONOutput.line([true, 1, false, 0] as [Any]), "[true,1,false,0]")
    }

    func testPrettyTextKeepsTheSameValues() throws {
        let text = JSONOutput.pretty(["b": [1, 2], "a": "x"] as [String: Any])
        XCTAssertEqual(text, "{\n  \"a\": \"x\",\n  \"b\": [\n    1,\n    2\n  ]\n}")
        let parsed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(parsed["a"] as? String, "x")
    }
}
