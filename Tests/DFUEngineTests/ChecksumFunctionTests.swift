import DFUEngine
import DFUProfile
import XCTest

/// The checksum and byte functions as expressions evaluate them, and the run-time errors for
/// what the loader cannot see (names and widths computed at run time, wrong types from paths).
/// Check values: the CRC RevEng catalogue's; Fletcher's and Adler's from Python.
final class ChecksumFunctionTests: XCTestCase {
    private var scope: Scope {
        var scope = Scope()
        scope["digits"] = .bytes(Array("123456789".utf8))
        scope["name"] = .string("crc-16/xmoden")
        scope["algorithm"] = .string("CRC-32/ISCSI")
        scope["twelve"] = .integer(12)
        scope["count"] = .integer(9)
        scope["text"] = .string("123456789")
        return scope
    }

    private func value(_ text: String) throws -> Value {
        try evaluated(text, in: scope)
    }

    private func failure(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> String? {
        try evaluationFailure(text, in: scope, file: file, line: line)
    }

    func testCRCByCatalogueNameOrAliasInAnyCase() throws {
        XCTAssertEqual(try value("crc('CRC-16/XMODEM', digits)"), .integer(0x31C3))
        XCTAssertEqual(try value("crc('XModem', digits)"), .integer(0x31C3))
        XCTAssertEqual(try value("crc('CRC-16/MODBUS', digits)"), .integer(0x4B37))
        XCTAssertEqual(try value("crc('CRC-8/SMBUS', digits)"), .integer(0xF4))
        XCTAssertEqual(try value("crc('CRC-32C', digits) == crc('CRC-32/ISCSI', digits)"), .boolean(true))
        XCTAssertEqual(try value("crc(algorithm, digits)"), .integer(0xE306_9283))
        XCTAssertEqual(try value("crc('CRC-64/XZ', digits)"), .integer(0x995D_C9BB_DF19_39FA))
    }

    func testCRC16AndCRC32StayAliasesOfTheirCatalogueEntries() throws {
        XCTAssertEqual(try value("crc16(digits) == crc('CRC-16/IBM-3740', digits)"), .boolean(true))
        XCTAssertEqual(try value("crc16(digits) == crc('CRC-16/CCITT-FALSE', digits)"), .boolean(true))
        XCTAssertEqual(try value("crc32(digits) == crc('CRC-32/ISO-HDLC', digits)"), .boolean(true))
        XCTAssertEqual(try value("crc32(digits)"), .integer(0xCBF4_3926))
    }

    func testSumsXorFletcherAdler() throws {
        XCTAssertEqual(try value("sum(digits, 8)"), .integer(0xDD))
        XCTAssertEqual(try value("sum(digits, 16)"), .integer(0x01DD))
        XCTAssertEqual(try value("xor8(digits)"), .integer(0x31))
        XCTAssertEqual(try value("fletcher16(digits)"), .integer(0x1EDE))
        XCTAssertEqual(try value("fletcher32(digits)"), .integer(0xDF09_D509))
        XCTAssertEqual(try value("adler32(digits)"), .integer(0x091E_01DE))
    }

    func testConcatJoinsTwoToEightByteStrings() throws {
        XCTAssertEqual(try value("concat(u8(1), digits, u8(2))"),
                       .bytes([1] + Array("123456789".utf8) + [2]))
        XCTAssertEqual(try value("len(concat(digits, digits, digits, digits, digits, digits, digits, digits))"),
                       .integer(72))
    }

    /// What only evaluation can tell: names and widths that come from variables, and values of
    /// the wrong type behind a path.
    func testRunTimeErrorsNameWhatIsWrong() throws {
        XCTAssertEqual(try failure("crc(name, digits)"),
                       "unknown CRC 'crc-16/xmoden'; did you mean 'CRC-16/XMODEM'? (crc() takes a name or alias "
                       + "of the CRC RevEng catalogue, e.g. 'CRC-16/XMODEM', 'CRC-32C'; profiles/README.md lists them)")
        XCTAssertEqual(try failure("crc(count, digits)"),
                       "crc() takes a CRC name such as 'CRC-16/XMODEM' first, got integer 9")
        XCTAssertEqual(try failure("crc(algorithm, text)"), "crc() needs bytes, got string")
        XCTAssertEqual(try failure("sum(digits, twelve)"), "sum() adds up in 8, 16, 32 or 64 bits, not 12")
        XCTAssertEqual(try failure("xor8(count)"), "xor8() needs bytes, got integer")
        XCTAssertEqual(try failure("u8(text)"), "u8() needs an integer, got string")
        XCTAssertEqual(try failure("u24be(count << 24)"), "u24be(150994944): 150994944 does not fit in 3 bytes (0...16777215)")
        XCTAssertEqual(try failure("u8(count * 100)"), "u8(900): 900 does not fit in 1 byte (0...255)")
        XCTAssertEqual(try failure("concat(digits, count)"), "concat() needs bytes, got integer")
    }
}
