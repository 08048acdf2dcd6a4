import DFUEngine
import DFUProfile
import XCTest

/// `ExpressionEvaluator` over parsed expressions; golden checksums come from Python's zlib,
/// binascii.crc_hqx(data, 0xFFFF) and hashlib. Wrong argument types are given through variables:
/// literals of the wrong type are load errors (`ChecksumExpressionTests`).
final class ExpressionEvaluatorTests: XCTestCase {
    private let digits: [UInt8] = Array("123456789".utf8)

    private var scope: Scope {
        var scope = InlineProfiles.helloScope
        scope["digits"] = .bytes(digits)
        scope["flags"] = .integer(0x30)
        scope["status"] = .record(["offset": .integer(2), "crc32": .integer(0xD125_6687)])
        return scope
    }

    private func value(_ text: String) throws -> Value {
        try evaluated(text, in: scope)
    }

    private func failure(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> String? {
        try evaluationFailure(text, in: scope, file: file, line: line)
    }

    func testArithmeticPrecedenceAndAssociativity() throws {
        XCTAssertEqual(try value("1 + 2 * 3"), .integer(7))
        XCTAssertEqual(try value("(1 + 2) * 3"), .integer(9))
        XCTAssertEqual(try value("10 - 4 - 3"), .integer(3))
        XCTAssertEqual(try value("100 / 10 / 5"), .integer(2))
        XCTAssertEqual(try value("17 % 5 * 2"), .integer(4))
        XCTAssertEqual(try value("1 << 2 + 1"), .integer(8), "shifts bind looser than +")
        XCTAssertEqual(try value("0xF0 | 0x0F & 0x3C"), .integer(0xFC), "& binds tighter than |")
        XCTAssertEqual(try value("256 >> 4"), .integer(16))
        XCTAssertEqual(try value("1 << 64"), .integer(0))
        XCTAssertEqual(try value("1 << 63"), .integer(1 << 63))
        XCTAssertEqual(try value("-0"), .integer(0))
    }

    func testBitwiseBindsTighterThanComparison() throws {
        XCTAssertEqual(try value("flags & 0x0F == 0"), .boolean(true))
        XCTAssertEqual(try value("flags & 0x10 == 0x10"), .boolean(true))
        XCTAssertEqual(try value("1 + 1 == 2 && 3 > 2 || false"), .boolean(true))
        XCTAssertEqual(try value("false && true || true"), .boolean(true), "&& binds tighter than ||")
        XCTAssertEqual(try value("true || true && false"), .boolean(true))
        XCTAssertEqual(try value("!(2 <= 1)"), .boolean(true))
        XCTAssertEqual(try value("2 >= 2"), .boolean(true))
        XCTAssertEqual(try value("2 < 2"), .boolean(false))
        XCTAssertEqual(try value("3 != 4"), .boolean(true))
    }

    func testLogicShortCircuits() throws {
        XCTAssertEqual(try value("false && missing.field"), .boolean(false))
        XCTAssertEqual(try value("true || missing.field"), .boolean(true))
        XCTAssertEqual(try value("false && 1 / 0 == 1"), .boolean(false))
        XCTAssertEqual(try failure("true && missing.field"),
                       "'missing.field' is not defined at this point of the procedure")
        XCTAssertEqual(try failure("1 && true"), "'&&' needs conditions")
        XCTAssertEqual(try failure("false || 1"), "'||' needs conditions")
    }

    func testOverflowNegativeAndDivisionErrors() throws {
        XCTAssertEqual(try failure("0xFFFFFFFFFFFFFFFF + 1"), "18446744073709551615 + 1 overflows")
        XCTAssertEqual(try failure("0x100000000 * 0x100000000"), "4294967296 * 4294967296 overflows")
        XCTAssertEqual(try failure("1 - 2"), "1 - 2 would be negative")
        XCTAssertEqual(try failure("image.size - 6"), "5 - 6 would be negative")
        XCTAssertEqual(try failure("-1"), "cannot apply '-' to integer")
        XCTAssertEqual(try failure("!1"), "cannot apply '!' to integer")
        XCTAssertEqual(try failure("1 / 0"), "division by zero")
        XCTAssertEqual(try failure("1 % 0"), "division by zero")
        XCTAssertEqual(try value("0xFFFFFFFFFFFFFFFF - 0xFFFFFFFFFFFFFFFF"), .integer(0))
    }

    func testTypeErrors() throws {
        XCTAssertEqual(try failure("image.data + 1"), "'+' needs integers, got bytes and integer")
        XCTAssertEqual(try failure("image.name < 1"), "'<' needs integers, got string and integer")
    }

    func testEqualityOfBytesStringsAndMixedTypes() throws {
        XCTAssertEqual(try value("image.sha256 == sha256(image.data)"), .boolean(true))
        XCTAssertEqual(try value("slice(image.data, 0, 2) == slice(digits, 0, 2)"), .boolean(false))
        XCTAssertEqual(try value("reverse(reverse(image.data)) == image.data"), .boolean(true))
        XCTAssertEqual(try value("image.name == 'application'"), .boolean(true))
        XCTAssertEqual(try value("image.data != image.size"), .boolean(true), "different types are unequal, not an error")
        XCTAssertEqual(try value("image.data == 5"), .boolean(false))
        XCTAssertEqual(try value("true == true"), .boolean(true))
    }

    func testPathsIntoRecords() throws {
        XCTAssertEqual(try value("image.size"), .integer(5))
        XCTAssertEqual(try value("link.mtu - 3"), .integer(20))
        XCTAssertEqual(try value("image"), InlineProfiles.helloScope["image"])
        XCTAssertEqual(try failure("image.size.bits"), "'image.size.bits' is not defined at this point of the procedure")
        XCTAssertEqual(try failure("image.colour"), "'image.colour' is not defined at this point of the procedure")
    }

    func testMinMaxLen() throws {
        XCTAssertEqual(try value("min(3, 1, 2)"), .integer(1))
        XCTAssertEqual(try value("max(3, 1, 2)"), .integer(3))
        XCTAssertEqual(try value("min(image.size, 4096)"), .integer(5))
        XCTAssertEqual(try value("len(digits)"), .integer(9))
        XCTAssertEqual(try value("len(slice(digits, 9, 9))"), .integer(0))
        XCTAssertEqual(try failure("min(image.data, 1)"), "min() needs an integer, got bytes")
        XCTAssertEqual(try failure("len(flags)"), "len() needs bytes, got integer")
    }

    func testSlice() throws {
        XCTAssertEqual(try value("slice(digits, 2, 5)"), .bytes([0x33, 0x34, 0x35]))
        XCTAssertEqual(try value("slice(digits, 0, 9)"), .bytes(digits))
        XCTAssertEqual(try failure("slice(digits, 5, 10)"), "slice(5, 10) is outside 0...9")
        XCTAssertEqual(try failure("slice(digits, 5, 4)"), "slice(5, 4) is outside 0...9")
    }

    func testChecksums() throws {
        XCTAssertEqual(try value("crc32(digits)"), .integer(0xCBF4_3926))
        XCTAssertEqual(try value("crc32(image.data)"), .integer(0x3610_A686))
        XCTAssertEqual(try value("crc32(slice(image.data, 0, 0))"), .integer(0))
        XCTAssertEqual(try value("crc32(slice(image.data, 0, status.offset)) == status.crc32"), .boolean(true))
        XCTAssertEqual(try value("crc16(digits)"), .integer(0x29B1))
        XCTAssertEqual(try value("crc16(image.data)"), .integer(0xD26E))
        XCTAssertEqual(try value("crc16(slice(digits, 0, 0))"), .integer(0xFFFF))
        XCTAssertEqual(try value("sha256(digits)"), .bytes([
            0x15, 0xE2, 0xB0, 0xD3, 0xC3, 0x38, 0x91, 0xEB, 0xB0, 0xF1, 0xEF, 0x60, 0x9E, 0xC4, 0x19, 0x42,
            0x0C, 0x20, 0xE3, 0x20, 0xCE, 0x94, 0xC6, 0x5F, 0xBC, 0x8C, 0x33, 0x12, 0x44, 0x8E, 0xB2, 0x25,
        ]))
        XCTAssertEqual(try failure("crc32(image.name)"), "crc32() needs bytes, got string")
        XCTAssertEqual(try failure("sha256(flags)"), "sha256() needs bytes, got integer")
    }

    func testReverseAndAlignDown() throws {
        XCTAssertEqual(try value("reverse(image.data)"), .bytes([0x6F, 0x6C, 0x6C, 0x65, 0x68]))
        XCTAssertEqual(try value("align_down(4097, 4096)"), .integer(4096))
        XCTAssertEqual(try value("align_down(4095, 4096)"), .integer(0))
        XCTAssertEqual(try value("align_down(8192, 4096)"), .integer(8192))
        XCTAssertEqual(try failure("align_down(10, 0)"), "align_down by zero")
        XCTAssertEqual(try failure("reverse(flags)"), "reverse() needs bytes, got integer")
    }

    func testUndefinedVariableErrorNamesTheExpressionAndPlace() throws {
        let expression = try DFUProfile.Expression(parsing: "chunk.offset + 1", at: SourceLocation(file: "p.yaml", line: 12, column: 9))
        XCTAssertThrowsError(try ExpressionEvaluator.evaluate(expression, in: scope)) { error in
            XCTAssertEqual(String(describing: error),
                           "p.yaml:12:9: error: in 'chunk.offset + 1': 'chunk.offset' is not defined at this point of the procedure")
        }
    }

    func testTypedAccessors() throws {
        XCTAssertEqual(try ExpressionEvaluator.integer(InlineProfiles.expression("image.size * 2"), in: scope), 10)
        XCTAssertEqual(try ExpressionEvaluator.bytes(InlineProfiles.expression("slice(image.data, 4, 5)"), in: scope), [0x6F])
        XCTAssertTrue(try ExpressionEvaluator.condition(InlineProfiles.expression("image.size == 5"), in: scope))
        XCTAssertThrowsError(try ExpressionEvaluator.condition(InlineProfiles.expression("image.size"), in: scope)) { error in
            XCTAssertEqual((error as? EvaluationError)?.message, "expected a condition (true/false), got integer 5")
        }
        XCTAssertThrowsError(try ExpressionEvaluator.integer(InlineProfiles.expression("image.sha256"), in: scope)) { error in
            XCTAssertEqual((error as? EvaluationError)?.message,
                           "expected an integer, got bytes 32 bytes 2cf24dba5fb0a30e26e83b2ac5b9e29e...")
        }
        XCTAssertThrowsError(try ExpressionEvaluator.bytes(InlineProfiles.expression("image.name"), in: scope)) { error in
            XCTAssertEqual((error as? EvaluationError)?.message, "expected bytes, got string 'application'")
        }
    }
}
