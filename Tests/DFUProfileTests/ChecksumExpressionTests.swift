import DFUBytes
import DFUProfile
import Foundation
import XCTest

/// The checksum and byte functions and `message` as the loader sees them: calls that parse,
/// literal arguments refused at their column, and `message` allowed in request field values only.
final class ChecksumExpressionTests: XCTestCase {
    let origin = SourceLocation(file: "p.yaml", line: 4, column: 10)

    func testNewFunctionsParse() throws {
        let cases: [(String, String)] = [
            ("crc('CRC-16/XMODEM', message)", "crc('CRC-16/XMODEM', message)"),
            ("crc('crc-32c', image.data) & 0xFF", "(crc('crc-32c', image.data) & 255)"),
            ("sum(message, 8) + xor8(message)", "(sum(message, 8) + xor8(message))"),
            ("fletcher16(a) | fletcher32(b) | adler32(c)", "((fletcher16(a) | fletcher32(b)) | adler32(c))"),
            ("concat(u8(1), u16le(2), u16be(3), u24le(4), u24be(5), u32le(6), u32be(7), u64le(8))",
             "concat(u8(1), u16le(2), u16be(3), u24le(4), u24be(5), u32le(6), u32be(7), u64le(8))"),
            ("u64be(0xFFFFFFFFFFFFFFFF)", "u64be(18446744073709551615)"),
            ("u8(255)", "u8(255)"),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(render(try ExpressionParser.parse(text, at: origin).node), expected, text)
        }
    }

    /// Literal arguments that cannot be right are load errors at their own column.
    func testMalformedCallsAreRefusedWhereTheyAreWritten() {
        let cases: [(text: String, column: Int, message: String)] = [
            ("crc('CRC-16/XMODEN', m)", 14,
             "unknown CRC 'CRC-16/XMODEN'; did you mean 'CRC-16/XMODEM'? (crc() takes a name or alias of the CRC "
                 + "RevEng catalogue"),
            ("crc('CRC-24/BLE', m)", 14, "unknown CRC 'CRC-24/BLE'"),
            ("crc(16, m)", 14, "'crc' takes text as its first argument, found the integer 16"),
            ("crc('XMODEM', 'text')", 24, "'crc' takes bytes (e.g. image.data or message) as its second argument, "
                + "found the text 'text'"),
            ("crc(m)", 10, "'crc' takes 2 arguments, found 1"),
            ("sum(m, 12)", 17, "sum() adds up in 8, 16, 32 or 64 bits, not 12"),
            ("sum(m)", 10, "'sum' takes 2 arguments, found 1"),
            ("xor8(true)", 15, "'xor8' takes bytes (e.g. image.data or message) as its first argument, found the "
                + "boolean true"),
            ("fletcher16(m, m)", 10, "'fletcher16' takes 1 argument, found 2"),
            ("u8(256)", 13, "u8(256): 256 does not fit in 1 byte (0...255)"),
            ("x + u16be(0x10000)", 20, "u16be(65536): 65536 does not fit in 2 bytes (0...65535)"),
            ("u24le(0x1000000)", 16, "u24le(16777216): 16777216 does not fit in 3 bytes (0...16777215)"),
            ("u32be('4')", 16, "'u32be' takes an integer as its first argument, found the text '4'"),
            ("concat(m)", 10, "'concat' takes 2 to 8 arguments, found 1"),
            ("concat(m, m, m, 7)", 26, "'concat' takes bytes (e.g. image.data or message) as argument 4, found the "
                + "integer 7"),
            ("adler32()", 10, "'adler32' takes 1 argument, found 0"),
        ]
        for testCase in cases {
            do {
                _ = try ExpressionParser.parse(testCase.text, at: origin)
                XCTFail("'\(testCase.text)' parsed")
            } catch {
                XCTAssertTrue(error.description.hasPrefix("p.yaml:4:\(testCase.column): error: in expression '"),
                              "\(testCase.text): \(error)")
                XCTAssertTrue(error.message.contains(testCase.message), "\(testCase.text): \(error)")
            }
        }
    }

    // MARK: - In profiles

    private static let trailingChecksum = """
        request:
              - { type: u8, value: 0x01 }
              - { name: reserved, type: bytes, count: 3 }
              - { name: crc, type: u16be, value: "crc('CRC-16/XMODEM', message)" }
        """

    func testARequestWithPaddingAndATrailingChecksumLoads() throws {
        let text = BrokenProfileTests.base.replacingOccurrences(of: "request:\n      - { type: u8, value: 0x01 }",
                                                                 with: Self.trailingChecksum)
        let profile = try ProfileLoader.load(text: text, path: "mini.yaml")
        let fields = try XCTUnwrap(profile.commands["ping"]?.request.fields)
        XCTAssertEqual(fields.count, 3)
        XCTAssertNil(fields[1].value, "padding has no value")
        XCTAssertEqual(fields[2].value?.text, "crc('CRC-16/XMODEM', message)")
    }

    static let cases: [BrokenProfileTests.Case] = [
        .init(name: "unknown CRC name", replace: "request:\n      - { type: u8, value: 0x01 }",
              with: "request:\n      - { type: u8, value: 0x01 }\n      - { type: u16, value: \"crc('CRC-16/XMODEN', message)\" }",
              at: "'CRC-16/XMODEN'", message: "unknown CRC 'CRC-16/XMODEN'; did you mean 'CRC-16/XMODEM'?"),
        .init(name: "message in a step", replace: "expect: [ping.status == 0]", with: "expect: [\"len(message) == 0\"]",
              at: "message", message: "'message' (the bytes of a request encoded so far) exists only in the 'value' "
                  + "of a request's field, not in responses, cbor maps or steps"),
        .init(name: "message in a response field", replace: "- { type: u8, value: 0x81 }",
              with: "- { type: u8, value: \"len(message)\" }", at: "message",
              message: "'message' (the bytes of a request encoded so far) exists only in the 'value' of a request's"),
        .init(name: "message in a response match", replace: "      status: { field: status",
              with: "      match: [\"len(message) > 0\"]\n      status: { field: status", at: "message",
              message: "'message' (the bytes of a request encoded so far) exists only in the 'value' of a request's"),
        .init(name: "message in a notification field", replace: "- { type: u8, value: 0x11 }",
              with: "- { type: u8, value: \"xor8(message)\" }", at: "message",
              message: "'message' (the bytes of a request encoded so far) exists only in the 'value' of a request's"),
        .init(name: "message in a cbor map", replace: "request:\n      - { type: u8, value: 0x01 }",
              with: "request:\n      - { type: u8, value: 0x01 }\n      - { type: cbor, map: { n: \"len(message)\" } }",
              at: "message", message: "exists only in the 'value' of a request's field, not in responses, cbor maps"),
        .init(name: "message with members", replace: "request:\n      - { type: u8, value: 0x01 }",
              with: "request:\n      - { type: u8, value: 0x01 }\n      - { type: u8, value: \"message.size\" }",
              at: "message.size", message: "'message' has no field 'size' (it has no fields)"),
        .init(name: "message hidden by a variable", replace: "request:\n      - { type: u8, value: 0x01 }",
              with: "request:\n      - { type: u8, value: 0x01 }\n      - { type: u8, value: \"xor8(message)\" }",
              at: "message", message: "'message' in a request field's value is the bytes of the fields before it, "
                  + "but this profile also defines 'message'"),
        .init(name: "wrong literal argument in a profile", replace: "- { type: u8, value: 0x01 }",
              with: "- { type: u16, value: \"sum(message, 12)\" }", at: "12)",
              message: "sum() adds up in 8, 16, 32 or 64 bits, not 12"),
    ]

    func testMessageOutsideRequestFieldValuesAndBadCallsAreReportedAtTheirPlace() {
        for testCase in Self.cases {
            var base = BrokenProfileTests.base
            if testCase.name == "message hidden by a variable" {
                base = base.replacingOccurrences(of: "procedure:\n", with: "procedure:\n  - set: { message: 1 }\n")
            }
            assertEachReportedAtItsPlace([testCase], in: base, path: "mini.yaml")
        }
    }

    /// profiles/README.md names every function and every CRC name and alias.
    func testTheProfileReferenceListsEveryFunctionAndCRCName() throws {
        let reference = try String(contentsOf: repositoryRoot.appendingPathComponent("profiles/README.md"), encoding: .utf8)
        for function in ExpressionFunction.allCases {
            XCTAssertTrue(reference.contains("`\(function.rawValue)("), "\(function.rawValue) is not documented")
        }
        for name in CRCCatalogue.names {
            XCTAssertTrue(reference.contains("`\(name)`"), "\(name) is not in the CRC names table")
        }
    }
}
