import DFUBytes
import DFUEngine
import DFUProfile
import XCTest

/// Requests whose fields cover the request's own bytes (`message`), zero padding, and the
/// integer-to-bytes functions, against golden bytes computed outside DFUKit: CRCs by Python's
/// crcmod 1.7 (`crcmod.predefined.mkCrcFun('xmodem')`, `('modbus')`), the two's-complement sum
/// by hand.
final class SelfDescribingMessageTests: XCTestCase {
    private func request(_ fields: String, in scope: Scope = Scope()) throws -> (bytes: [UInt8], fields: [String: Value]) {
        let profile = try InlineProfiles.load(InlineProfiles.header.replacingOccurrences(of: "commands:\n", with: """
        commands:
          command:
            characteristic: control
            request:
        \(fields)
        """) + "procedure:\n  - chunks:\n      data: image.data\n      size: 6\n      steps:\n        - send: command\n")
        return try MessageEncoder.encode(XCTUnwrap(profile.commands["command"]?.request), in: scope)
    }

    private var chunkScope: Scope {
        var scope = Scope()
        scope["chunk"] = .record(["offset": .integer(0x0001_2C00), "data": .bytes(Array("DFUKit".utf8))])
        return scope
    }

    /// A 20-byte command whose last two bytes are the CRC-16/XMODEM of the first 18: crcmod gives
    /// 0xD9DD over a5 21 00 2c 01 00 00 06 44 46 55 4b 69 74 00 00 00 00.
    func testTwentyByteCommandEndsWithTheCRCOfItsFirstEighteenBytes() throws {
        let (bytes, fields) = try request("""
              - { type: u8, value: 0xA5 }
              - { type: u8, value: 0x21 }
              - { name: offset, type: u32le, value: chunk.offset }
              - { name: length, type: u16be, value: "len(chunk.data)" }
              - { name: data, type: bytes, count: 6, value: chunk.data }
              - { type: bytes, count: 4 }
              - { name: crc, type: u16be, value: "crc('CRC-16/XMODEM', message)" }

        """, in: chunkScope)
        XCTAssertEqual(bytes.hexString, "a521002c010000064446554b697400000000d9dd")
        XCTAssertEqual(bytes.count, 20)
        XCTAssertEqual(fields["crc"], .integer(0xD9DD))
    }

    /// Modbus RTU's "read 10 holding registers from 0" frame, 01 03 00 00 00 0a c5 cd: the CRC goes
    /// out low byte first, here as bytes made by `u16le` in a nested call and an alias in any case.
    func testModbusFrameWithItsCRCLowByteFirst() throws {
        let (bytes, _) = try request("""
              - { type: u8, value: 0x01 }
              - { type: u8, value: 0x03 }
              - { type: u16be, value: 0 }
              - { type: u16be, value: 10 }
              - { type: bytes, count: 2, value: "u16le(crc('modbus', message))" }

        """)
        XCTAssertEqual(bytes.hexString, "01030000000ac5cd")
    }

    /// A two's-complement checksum byte: the message's bytes plus it add up to 0 modulo 256.
    func testTwosComplementSumAndXorOverWhatCameBefore() throws {
        let (bytes, _) = try request("""
              - { type: u8, value: 0x02 }
              - { type: u8, value: 0x10 }
              - { type: u16be, value: 0x2030 }
              - { name: sum, type: u8, value: "(0x100 - sum(message, 8)) & 0xFF" }
              - { name: parity, type: u8, value: "xor8(message)" }

        """)
        XCTAssertEqual(bytes, [0x02, 0x10, 0x20, 0x30, 0x9E, 0x02 ^ 0x10 ^ 0x20 ^ 0x30 ^ 0x9E])
    }

    func testMessageIsEmptyInTheFirstFieldAndGrowsFieldByField() throws {
        let (bytes, fields) = try request("""
              - { name: first, type: u8, value: "len(message)" }
              - { type: bytes, count: 3 }
              - { name: third, type: u8, value: "len(message)" }
              - { name: copy, type: bytes, value: "concat(message, u24be(0x010203))" }

        """)
        XCTAssertEqual(bytes, [0, 0, 0, 0, 4, 0, 0, 0, 0, 4, 1, 2, 3])
        XCTAssertEqual(fields["first"], .integer(0))
        XCTAssertEqual(fields["copy"], .bytes([0, 0, 0, 0, 4, 1, 2, 3]))
    }

    func testPaddingIsZeroBytesAndNamedPaddingIsAField() throws {
        let (bytes, fields) = try request("""
              - { type: u8, value: 0x07 }
              - { name: reserved, type: bytes, count: 5 }

        """)
        XCTAssertEqual(bytes, [0x07, 0, 0, 0, 0, 0])
        XCTAssertEqual(fields["reserved"], .bytes([0, 0, 0, 0, 0]))
    }

    func testARequestFieldWithoutValueOrCountIsStillAnError() throws {
        XCTAssertThrowsError(try request("""
              - { type: u8, value: 0x07 }
              - { name: missing, type: u16 }

        """)) { error in
            XCTAssertEqual((error as? EvaluationError)?.message, "the request field has no value to send")
        }
    }

    func testIntegersAsBytesInEveryWidthAndOrder() throws {
        let (bytes, _) = try request("""
              - { type: bytes, value: "concat(u8(1), u16le(0x0203), u16be(0x0405), u24le(0x060708), u24be(0x090A0B))" }
              - { type: bytes, value: "concat(u32le(0x0C0D0E0F), u32be(0x10111213))" }
              - { type: bytes, value: "concat(u64le(0x1415161718191A1B), u64be(0x1C1D1E1F20212223))" }

        """)
        XCTAssertEqual(bytes, [0x01, 0x03, 0x02, 0x04, 0x05, 0x08, 0x07, 0x06, 0x09, 0x0A, 0x0B,
                               0x0F, 0x0E, 0x0D, 0x0C, 0x10, 0x11, 0x12, 0x13,
                               0x1B, 0x1A, 0x19, 0x18, 0x17, 0x16, 0x15, 0x14,
                               0x1C, 0x1D, 0x1E, 0x1F, 0x20, 0x21, 0x22, 0x23])
    }

    func testAValueTooLargeForItsBytesIsAnErrorNamingIt() throws {
        XCTAssertThrowsError(try request("""
              - { type: bytes, value: "u16le(chunk.offset)" }

        """, in: chunkScope)) { error in
            let evaluation = error as? EvaluationError
            XCTAssertEqual(evaluation?.message, "u16le(76800): 76800 does not fit in 2 bytes (0...65535)")
            XCTAssertEqual(evaluation?.expression, "u16le(chunk.offset)")
        }
    }
}
