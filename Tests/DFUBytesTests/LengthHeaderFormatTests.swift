import XCTest
import DFUBytes

final class LengthHeaderFormatTests: XCTestCase {
    /// The vendor control point: a little-endian u16 payload length, nothing else.
    private let vendor = LengthHeaderFormat(headerSize: 2, lengthWidth: 2, endianness: .little)
    /// MCUmgr SMP: op, flags, u16 BE length of the CBOR body, u16 BE group, seq, id.
    private let smp = LengthHeaderFormat(headerSize: 8, lengthOffset: 2, lengthWidth: 2, endianness: .big)

    // MARK: validate

    func testValidFormatsPass() throws {
        try vendor.validate()
        try smp.validate()
        try LengthHeaderFormat(headerSize: 1, lengthWidth: 1, endianness: .big).validate()
        try LengthHeaderFormat(headerSize: 4, lengthWidth: 4, endianness: .little, lengthCounts: .frame).validate()
        XCTAssertTrue(vendor.isLengthOnly)
        XCTAssertFalse(smp.isLengthOnly)
        XCTAssertFalse(LengthHeaderFormat(headerSize: 3, lengthWidth: 2, endianness: .big).isLengthOnly)
        XCTAssertFalse(LengthHeaderFormat(headerSize: 2, lengthOffset: 1, lengthWidth: 1, endianness: .big).isLengthOnly)
    }

    func testInvalidFormatsAreRejected() {
        for width in [0, 3, 8, -2] {
            let format = LengthHeaderFormat(headerSize: 8, lengthWidth: width, endianness: .big)
            XCTAssertEqual(expectError(format.validate), .unsupportedLengthWidth(width))
        }
        let outside = LengthHeaderFormat(headerSize: 8, lengthOffset: 7, lengthWidth: 2, endianness: .big)
        XCTAssertEqual(expectError(outside.validate),
                       .lengthFieldOutsideHeader(lengthOffset: 7, lengthWidth: 2, headerSize: 8))
        let negative = LengthHeaderFormat(headerSize: 2, lengthOffset: -1, lengthWidth: 2, endianness: .big)
        XCTAssertEqual(expectError(negative.validate),
                       .lengthFieldOutsideHeader(lengthOffset: -1, lengthWidth: 2, headerSize: 2))
        let tooSmallHeader = LengthHeaderFormat(headerSize: 1, lengthWidth: 2, endianness: .big)
        XCTAssertEqual(expectError(tooSmallHeader.validate),
                       .lengthFieldOutsideHeader(lengthOffset: 0, lengthWidth: 2, headerSize: 1))
        let negativeLimit = LengthHeaderFormat(headerSize: 2, lengthWidth: 2, endianness: .big, maximumPayloadLength: -1)
        XCTAssertEqual(expectError(negativeLimit.validate), .negativeMaximumPayloadLength(-1))
        // frame/seal validate first.
        XCTAssertEqual(expectError { () throws(FramingError) in _ = try outside.seal(frame: Array(repeating: 0, count: 8)) },
                       .lengthFieldOutsideHeader(lengthOffset: 7, lengthWidth: 2, headerSize: 8))
    }

    // MARK: (a) vendor u16 little-endian, length only

    func testVendorFrameGoldenBytes() throws {
        XCTAssertEqual(try vendor.frame(payload: [0x01, 0x02, 0x03]), hexBytes("0300 010203"))
        XCTAssertEqual(try vendor.frame(payload: []), hexBytes("0000"))
        let long = [UInt8](repeating: 0x5A, count: 300)
        XCTAssertEqual(try vendor.frame(payload: long), hexBytes("2c01") + long)
        XCTAssertEqual(vendor.payload(ofFrame: hexBytes("0300 010203")), [1, 2, 3])
        XCTAssertEqual(vendor.announcedLength(inHeader: hexBytes("2c01")), 300)
        XCTAssertNil(vendor.announcedLength(inHeader: [0x2C]))
    }

    // MARK: (b) SMP 8-byte header

    /// `smp` 4.2.0 (PyPI): `bytes(smp.os_management.EchoWriteRequest(d="hello"))`.
    /// Byte 0 = 0x0a: op 2 (write) | SMP version 1 << 3; flags 0; length 0x0009 (BE) = the CBOR
    /// body {"d": "hello"}; group 0 (OS, BE); sequence 0; command 0 (echo).
    private let smpEchoHello = hexBytes("0a 00 0009 0000 00 00  a1 61 64 65 68 65 6c 6c 6f")

    func testSMPSealWritesTheBigEndianLengthAtOffsetTwo() throws {
        var unsealed = smpEchoHello
        unsealed[2] = 0xEE
        unsealed[3] = 0xEE
        XCTAssertEqual(try smp.seal(frame: unsealed), smpEchoHello)
        XCTAssertEqual(smp.payload(ofFrame: smpEchoHello), hexBytes("a1 61 64 65 68 65 6c 6c 6f"))
        XCTAssertEqual(smp.announcedLength(inHeader: smpEchoHello), 9)
        // Sealing is idempotent and never touches the other header fields.
        XCTAssertEqual(try smp.seal(frame: smpEchoHello), smpEchoHello)
    }

    func testSMPSealWithATwoByteLength() throws {
        // `smp` 4.2.0: EchoWriteRequest(d="x" * 300, sequence=7) starts with these 14 bytes and
        // is 314 bytes long: CBOR body of 306 = 0x0132 bytes.
        let body = hexBytes("a1 61 64 79 01 2c") + [UInt8](repeating: UInt8(ascii: "x"), count: 300)
        let unsealed = hexBytes("0a 00 0000 0000 07 00") + body
        let sealed = try smp.seal(frame: unsealed)
        XCTAssertEqual(Array(sealed.prefix(14)), hexBytes("0a 00 01 32 00 00 07 00 a1 61 64 79 01 2c"))
        XCTAssertEqual(sealed.count, 314)
    }

    func testSMPHeaderCannotBeBuiltByFrame() {
        XCTAssertEqual(expectError { () throws(FramingError) in _ = try smp.frame(payload: [1]) },
                       .headerNotLengthOnly(headerSize: 8, lengthWidth: 2))
    }

    func testSealRejectsAFrameShorterThanItsHeader() {
        XCTAssertEqual(expectError { () throws(FramingError) in _ = try smp.seal(frame: [0x0A, 0, 0, 0, 0]) },
                       .frameShorterThanHeader(frameLength: 5, headerSize: 8))
    }

    // MARK: (c) 1-byte and 4-byte widths

    func testOneByteWidth() throws {
        let format = LengthHeaderFormat(headerSize: 1, lengthWidth: 1, endianness: .big)
        XCTAssertEqual(try format.frame(payload: [0xAB, 0xCD]), hexBytes("02 abcd"))
        let largest = [UInt8](repeating: 1, count: 255)
        XCTAssertEqual(try format.frame(payload: largest), [0xFF] + largest)
        XCTAssertEqual(expectError { () throws(FramingError) in _ = try format.frame(payload: largest + [1]) },
                       .payloadTooLong(length: 256, limit: 255))
    }

    func testFourByteWidthBothEndiannesses() throws {
        let payload = [UInt8](repeating: 0xEE, count: 0x0102)
        let big = LengthHeaderFormat(headerSize: 4, lengthWidth: 4, endianness: .big, maximumPayloadLength: 1 << 20)
        let little = LengthHeaderFormat(headerSize: 4, lengthWidth: 4, endianness: .little, maximumPayloadLength: 1 << 20)
        XCTAssertEqual(try big.frame(payload: payload), hexBytes("00000102") + payload)
        XCTAssertEqual(try little.frame(payload: payload), hexBytes("02010000") + payload)
        // A 4-byte length inside a larger header, little-endian at offset 1.
        let inner = LengthHeaderFormat(headerSize: 6, lengthOffset: 1, lengthWidth: 4, endianness: .little)
        XCTAssertEqual(try inner.seal(frame: hexBytes("7f ffffffff 55 010203")), hexBytes("7f 03000000 55 010203"))
    }

    // MARK: (d) length counts the whole frame

    func testFrameCounting() throws {
        let format = LengthHeaderFormat(headerSize: 2, lengthWidth: 2, endianness: .little, lengthCounts: .frame)
        XCTAssertEqual(try format.frame(payload: [1, 2, 3]), hexBytes("0500 010203"))
        XCTAssertEqual(try format.frame(payload: []), hexBytes("0200"))
        let smpLike = LengthHeaderFormat(headerSize: 4, lengthOffset: 2, lengthWidth: 2, endianness: .big,
                                         lengthCounts: .frame)
        XCTAssertEqual(try smpLike.seal(frame: hexBytes("aa bb 0000 0102")), hexBytes("aa bb 0006 0102"))
        // With one byte, the header itself uses one of the 255 countable bytes.
        let oneByte = LengthHeaderFormat(headerSize: 1, lengthWidth: 1, endianness: .big, lengthCounts: .frame)
        XCTAssertEqual(oneByte.effectivePayloadLimit, 254)
        XCTAssertEqual(try oneByte.frame(payload: Array(repeating: 0, count: 254)).first, 0xFF)
        XCTAssertEqual(expectError { () throws(FramingError) in
            _ = try oneByte.frame(payload: Array(repeating: 0, count: 255))
        }, .payloadTooLong(length: 255, limit: 254))
    }

    func testMaximumPayloadLengthIsEnforced() {
        let format = LengthHeaderFormat(headerSize: 2, lengthWidth: 2, endianness: .little, maximumPayloadLength: 4)
        XCTAssertNoThrow(try format.frame(payload: [1, 2, 3, 4]))
        let error = expectError { () throws(FramingError) in _ = try format.frame(payload: [1, 2, 3, 4, 5]) }
        XCTAssertEqual(error, .payloadTooLong(length: 5, limit: 4))
        XCTAssertEqual(error?.description, "payload of 5 bytes is longer than the limit of 4 bytes")
    }
}
