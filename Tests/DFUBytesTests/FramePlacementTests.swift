import XCTest
import DFUBytes

/// How a message becomes a frame and back: the length inserted into the message or laid over
/// its own header bytes. Golden frames written by hand from each layout, byte by byte.
final class FramePlacementTests: XCTestCase {
    /// Issue 11's device: opcode, u16 little-endian payload length, payload.
    private let opcodeThenLength = LengthHeaderFormat(headerSize: 3, lengthOffset: 1, lengthWidth: 2, endianness: .little)
    /// MCUmgr SMP: the message declares the whole 8-byte header, length placeholder at byte 2.
    private let smp = LengthHeaderFormat(headerSize: 8, lengthOffset: 2, lengthWidth: 2, endianness: .big,
                                         lengthField: .overlay)

    // MARK: insert

    /// The message `01 e8030000` (opcode 1, u32 1000) keeps its opcode in front; the u16 length
    /// of the 4-byte payload goes in at byte 1. It used to come out as `01 02 00 00 00`.
    func testInsertAtOffsetOneKeepsTheOpcodeInFront() throws {
        let message = hexBytes("01 e8030000")
        let frame = try opcodeThenLength.frame(message: message)
        XCTAssertEqual(frame, hexBytes("01 04 00 e8 03 00 00"))
        XCTAssertEqual(try opcodeThenLength.message(ofFrame: frame), message)
        XCTAssertEqual(opcodeThenLength.payload(ofFrame: frame), hexBytes("e8030000"))
        // A message that is all header: the length is 0.
        XCTAssertEqual(try opcodeThenLength.frame(message: [0x05]), hexBytes("05 0000"))
    }

    func testInsertAtOffsetZeroPrependsAsTheVendorProfileDoes() throws {
        let vendor = LengthHeaderFormat(headerSize: 2, lengthWidth: 2, endianness: .little)
        XCTAssertEqual(try vendor.frame(message: hexBytes("010203")), hexBytes("0300 010203"))
        XCTAssertEqual(try vendor.frame(message: hexBytes("010203")), try vendor.frame(payload: hexBytes("010203")))
        XCTAssertEqual(try vendor.frame(message: []), hexBytes("0000"))
        XCTAssertEqual(try vendor.message(ofFrame: hexBytes("0300 010203")), hexBytes("010203"))
    }

    func testInsertWithHeaderBytesAfterTheLength() throws {
        // Length first, then a 2-byte opcode that is still header: the payload is what follows.
        let format = LengthHeaderFormat(headerSize: 4, lengthWidth: 2, endianness: .big)
        XCTAssertEqual(try format.frame(message: hexBytes("a0b0 1122")), hexBytes("0002 a0b0 1122"))
        XCTAssertEqual(try format.message(ofFrame: hexBytes("0002 a0b0 1122")), hexBytes("a0b0 1122"))
        XCTAssertEqual(expectError { () throws(FramingError) in _ = try format.frame(message: [0xA0]) },
                       .messageShorterThanHeader(messageLength: 1, headerBytes: 2))
    }

    func testInsertWithALengthThatCountsTheWholeFrame() throws {
        var format = opcodeThenLength
        format.lengthCounts = .frame
        XCTAssertEqual(try format.frame(message: hexBytes("01 e8030000")), hexBytes("01 0700 e8030000"))
    }

    // MARK: overlay

    /// `smp` 4.2.0 (PyPI): `bytes(smp.os_management.EchoWriteRequest(d="hello"))`; the message
    /// declares a placeholder (`eeee` here) where the length goes.
    func testOverlayWritesTheLengthOverThePlaceholder() throws {
        let message = hexBytes("0a 00 eeee 0000 00 00  a1 61 64 65 68 65 6c 6c 6f")
        let frame = try smp.frame(message: message)
        XCTAssertEqual(frame, hexBytes("0a 00 0009 0000 00 00  a1 61 64 65 68 65 6c 6c 6f"))
        // The whole frame is the message handed back, header included.
        XCTAssertEqual(try smp.message(ofFrame: frame), frame)
        XCTAssertEqual(smp.headerBytesInMessage, 8)
        XCTAssertEqual(expectError { () throws(FramingError) in _ = try smp.frame(message: hexBytes("0a 00 0000")) },
                       .messageShorterThanHeader(messageLength: 4, headerBytes: 8))
    }

    func testOverlayOfTheIssueExampleOverwritesWhatTheMessageDeclaredThere() throws {
        // Overlay is for messages that declare the length's bytes: here it takes bytes 1..<3 of
        // the u32, which is why `profile check` refuses this message with an overlay framing.
        var format = opcodeThenLength
        format.lengthField = .overlay
        XCTAssertEqual(try format.frame(message: hexBytes("01 e8030000")), hexBytes("01 0200 0000"))
    }

    // MARK: trailers

    private func crc16Trailer(counted: Bool = false) throws -> FrameTrailer {
        FrameTrailer(checksum: try XCTUnwrap(FrameChecksum.named("crc16")), countedInLength: counted)
    }

    /// CRC-16/CCITT-FALSE over `01 0400 e8030000` is 0x1777 (Python: `binascii.crc_hqx(frame,
    /// 0xFFFF)`), written little-endian as the framing is.
    func testInsertWithACRC16Trailer() throws {
        var format = opcodeThenLength
        format.trailer = try crc16Trailer()
        let frame = try format.frame(message: hexBytes("01 e8030000"))
        XCTAssertEqual(frame, hexBytes("01 0400 e8030000 7717"))
        XCTAssertEqual(try format.message(ofFrame: frame), hexBytes("01 e8030000"))
        XCTAssertEqual(format.payload(ofFrame: frame), hexBytes("e8030000"))
    }

    /// With the trailer counted the length is 4 + 2; the checksum covers that length:
    /// `binascii.crc_hqx(bytes.fromhex("010600e8030000"), 0xFFFF)` = 0x9c37.
    func testATrailerTheLengthCounts() throws {
        var format = opcodeThenLength
        format.trailer = try crc16Trailer(counted: true)
        XCTAssertEqual(try format.frame(message: hexBytes("01 e8030000")), hexBytes("01 0600 e8030000 379c"))
        XCTAssertEqual(format.effectivePayloadLimit, 65_533)
    }

    /// `zlib.crc32` of the SMP echo frame is 0x6df940aa, written big-endian as SMP's framing is.
    func testOverlayWithABigEndianCRC32Trailer() throws {
        var format = smp
        format.trailer = FrameTrailer(checksum: try XCTUnwrap(FrameChecksum.named("crc32")))
        let message = hexBytes("0a 00 0000 0000 00 00  a1 61 64 65 68 65 6c 6c 6f")
        let frame = try format.frame(message: message)
        XCTAssertEqual(frame, hexBytes("0a 00 0009 0000 00 00  a1 61 64 65 68 65 6c 6c 6f  6df940aa"))
        XCTAssertEqual(try format.message(ofFrame: frame), Array(frame.dropLast(4)))
    }

    func testAFrameWhoseTrailerDoesNotMatchIsRefused() throws {
        var format = opcodeThenLength
        format.trailer = try crc16Trailer()
        let error = expectError { () throws(FramingError) in
            _ = try format.message(ofFrame: hexBytes("01 0400 e8030001 7717"))
        }
        XCTAssertEqual(error, .checksumMismatch(checksum: "crc16", width: 2,
                                                computed: UInt64(CRC16CCITTFalse.checksum(hexBytes("01 0400 e8030001"))),
                                                received: 0x1777))
        XCTAssertEqual(error?.description.hasPrefix("the frame's crc16 trailer is 0x1777, its bytes give 0x"), true)
        XCTAssertEqual(expectError { () throws(FramingError) in _ = try format.message(ofFrame: hexBytes("01 04 00 77")) },
                       .frameShorterThanHeader(frameLength: 4, headerSize: 5))
    }

    func testTheCatalogueKnowsCRC16AndCRC32ByTheirCheckValues() throws {
        let check = Array("123456789".utf8)
        let crc16 = try XCTUnwrap(FrameChecksumCatalogue.lookup("crc16"))
        let crc32 = try XCTUnwrap(FrameChecksumCatalogue.lookup("crc32"))
        XCTAssertEqual(crc16.width, 2)
        XCTAssertEqual(crc16.compute(check), 0x29B1)
        XCTAssertEqual(crc32.width, 4)
        XCTAssertEqual(crc32.compute(check), 0xCBF4_3926)
        XCTAssertEqual(FrameChecksum.named("CRC-16/IBM-3740")?.value(of: check), 0x29B1)
        XCTAssertNil(FrameChecksumCatalogue.lookup("crc17"))
        XCTAssertEqual(FrameChecksumCatalogue.names.filter { FrameChecksumCatalogue.lookup($0) == nil }, [])
    }

    /// Trailers take every catalogue CRC by name or alias, any case, at its width in bytes, and
    /// the arithmetic checks; check values from the CRC RevEng catalogue.
    func testTrailersTakeCatalogueCRCsAndArithmeticChecks() throws {
        let check = Array("123456789".utf8)
        let expected: [(name: String, width: Int, value: UInt64)] = [
            ("CRC-16/XMODEM", 2, 0x31C3), ("crc-16/modbus", 2, 0x4B37), ("CRC-32C", 4, 0xE306_9283),
            ("CRC-8/SMBUS", 1, 0xF4), ("CRC-64/XZ", 8, 0x995D_C9BB_DF19_39FA),
            ("xor8", 1, 0x31), ("sum8", 1, 0xDD), ("fletcher16", 2, 0x1EDE), ("adler32", 4, 0x091E_01DE),
        ]
        for entry in expected {
            let algorithm = try XCTUnwrap(FrameChecksumCatalogue.lookup(entry.name), entry.name)
            XCTAssertEqual(algorithm.width, entry.width, entry.name)
            XCTAssertEqual(algorithm.compute(check), entry.value, entry.name)
        }
        var format = LengthHeaderFormat(headerSize: 2, lengthWidth: 2, endianness: .little)
        format.trailer = FrameTrailer(checksum: try XCTUnwrap(FrameChecksum.named("CRC-16/XMODEM")))
        // 02 00 | 01 02 | CRC-16/XMODEM of 02 00 01 02 = 0xFE1B (binascii.crc_hqx), little-endian.
        XCTAssertEqual(try format.frame(message: [0x01, 0x02]), [0x02, 0x00, 0x01, 0x02, 0x1B, 0xFE])
    }

    func testATrailerWiderThanEightBytesIsRejected() {
        let wide = FrameChecksum(name: "crc82", width: 11) { _ in 0 }
        let format = LengthHeaderFormat(headerSize: 2, lengthWidth: 2, endianness: .big, trailer: FrameTrailer(checksum: wide))
        XCTAssertEqual(expectError(format.validate), .unsupportedTrailerWidth(name: "crc82", width: 11))
    }
}
