import DFUProfile
import XCTest

/// Precedence, associativity, literals, calls, and error columns of the expression parser.
final class ExpressionParserTests: XCTestCase {
    let origin = SourceLocation(file: "p.yaml", line: 4, column: 10)

    func parse(_ text: String) throws(ProfileError) -> DFUProfile.Expression {
        try ExpressionParser.parse(text, at: origin)
    }

    func testPrecedenceGoldenCases() throws {
        let golden: [(String, String)] = [
            ("1 + 2 * 3", "(1 + (2 * 3))"),
            ("(1 + 2) * 3", "((1 + 2) * 3)"),
            ("a - b - c", "((a - b) - c)"),
            ("a % b / c * d", "(((a % b) / c) * d)"),
            ("1 << 2 + 3", "(1 << (2 + 3))"),
            ("a >> 1 & 0xFF", "((a >> 1) & 255)"),
            ("a | b & c", "(a | (b & c))"),
            ("flags & 0x0F == 0", "((flags & 15) == 0)"),
            ("a | b < c", "((a | b) < c)"),
            ("a < b == c >= d", "((a < b) == (c >= d))"),
            ("a == b != c", "((a == b) != c)"),
            ("a || b && c", "(a || (b && c))"),
            ("a && b || c && d", "((a && b) || (c && d))"),
            ("a == 1 && b != 2 || !c", "(((a == 1) && (b != 2)) || (!c))"),
            ("-a * b", "((-a) * b)"),
            ("!!a", "(!(!a))"),
            ("- -1", "(-(-1))"),
            ("x <= y", "(x <= y)"),
            ("min(a, b + 1, 3)", "min(a, (b + 1), 3)"),
            ("crc32(slice(image.data, 0, status.offset)) == status.crc32",
             "(crc32(slice(image.data, 0, status.offset)) == status.crc32)"),
            ("align_down(max_size - 4, 16)", "align_down((max_size - 4), 16)"),
            ("'text' == name", "('text' == name)"),
            ("\"double\" != name", "('double' != name)"),
            ("true && !false", "(true && (!false))"),
            ("0xFFFFFFFFFFFFFFFF", "18446744073709551615"),
            ("  spaced . path  ", "spaced.path"),
        ]
        for (text, expected) in golden {
            XCTAssertEqual(render(try parse(text).node), expected, text)
        }
    }

    func testNodesAndText() throws {
        let expression = try parse("len(image.data) > 0")
        XCTAssertEqual(expression.text, "len(image.data) > 0")
        XCTAssertEqual(expression.location, origin)
        XCTAssertEqual(expression.node, .binary(.greater, .call(.len, [.path(["image", "data"])]), .integer(0)))
        XCTAssertEqual(try Expression(parsing: "true", at: origin).node, .boolean(true))
    }

    func testReferencesCarryTheirColumns() throws {
        let parsed = try ExpressionParser.parseWithReferences("a.b + min(c, d.e)", at: origin)
        XCTAssertEqual(parsed.references.map(\.components), [["a", "b"], ["c"], ["d", "e"]])
        XCTAssertEqual(parsed.references.map(\.location.column), [10, 20, 23])
    }

    /// Errors point at the offending token: column = origin column + offset.
    func testErrorColumns() {
        let cases: [(text: String, column: Int, message: String)] = [
            ("a + * b", 14, "expected a value, found '*'"),
            ("a +", 13, "expected a value, found the end of the expression"),
            ("(a + b", 16, "expected ')' to close '(', found the end of the expression"),
            ("a b", 12, "unexpected 'b' after a complete expression"),
            ("a = b", 12, "'=' is not an operator; use '==' to compare"),
            ("a # b", 12, "unexpected character '#'"),
            ("'open", 10, "unterminated string"),
            ("0x", 10, "malformed number '0x'"),
            ("12ab", 10, "malformed number '12ab'"),
            ("99999999999999999999", 10, "does not fit in 64 bits"),
            ("a.", 12, "expected a name after '.'"),
            ("x + shaa256(d)", 14, "unknown function 'shaa256'; did you mean 'sha256'?"),
            ("nosuch(d)", 10, "unknown function 'nosuch' (functions: min, max, len"),
            ("len(a, b)", 10, "'len' takes 1 argument, found 2"),
            ("1 + min(a)", 14, "'min' takes 2 to 8 arguments, found 1"),
            ("slice(a, 1)", 10, "'slice' takes 3 arguments, found 2"),
            ("min(a b)", 16, "expected ',' or ')' in the call of 'min'"),
        ]
        for testCase in cases {
            do {
                _ = try parse(testCase.text)
                XCTFail("'\(testCase.text)' parsed")
            } catch {
                XCTAssertTrue(error.description.hasPrefix("p.yaml:4:\(testCase.column): error: in expression '"),
                              "\(testCase.text): \(error)")
                XCTAssertTrue(error.message.contains(testCase.message), "\(testCase.text): \(error)")
            }
        }
    }

    func testInexactColumnsPointAtTheOrigin() {
        do {
            _ = try ExpressionParser.parse("a +\n* b", at: origin, exactColumns: false)
            XCTFail("parsed")
        } catch {
            XCTAssertEqual(error.location, origin)
        }
    }
}
