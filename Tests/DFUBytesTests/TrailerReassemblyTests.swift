import XCTest
import DFUBytes

/// Reassembly of frames that end with a checksum trailer, and of inserted lengths, fed whole,
/// split everywhere and byte by byte.
final class TrailerReassemblyTests: XCTestCase {
    /// Opcode, u16 LE payload length inserted at byte 1, payload, CRC-16/CCITT-FALSE LE.
    private var format: LengthHeaderFormat {
        LengthHeaderFormat(headerSize: 3, lengthOffset: 1, lengthWidth: 2, endianness: .little,
                           trailer: FrameTrailer(checksum: FrameChecksum.named("crc16")!))
    }

    /// `01 e8030000` and `82 00` framed (CRCs from Python's `binascii.crc_hqx(frame, 0xFFFF)`).
    private let frames = [hexBytes("01 0400 e8030000 7717"), hexBytes("82 0100 00 a083")]
    private let messages = [hexBytes("01 e8030000"), hexBytes("82 00")]

    private func messages(of frames: [[UInt8]], _ format: LengthHeaderFormat) throws -> [[UInt8]] {
        try frames.map { frame throws(FramingError) in try format.message(ofFrame: frame) }
    }

    func testByteByByteEachFrameCompletesOnItsLastTrailerByte() throws {
        var reassembler = Reassembler(format: format)
        let stream = frames.flatMap { $0 }
        var completed: [[UInt8]] = []
        for (index, byte) in stream.enumerated() {
            let now = try reassembler.append([byte])
            if index == frames[0].count - 1 || index == stream.count - 1 {
                XCTAssertEqual(now.count, 1, "at byte \(index)")
            } else {
                XCTAssertEqual(now, [], "at byte \(index)")
            }
            completed += now
        }
        XCTAssertEqual(completed, frames)
        XCTAssertEqual(try messages(of: completed, format), messages)
    }

    func testEverySplitIntoTwoNotifications() throws {
        let stream = frames.flatMap { $0 }
        for split in 0...stream.count {
            var reassembler = Reassembler(format: format)
            let completed = try reassembler.append(Array(stream[..<split])) + reassembler.append(Array(stream[split...]))
            XCTAssertEqual(try messages(of: completed, format), messages, "split at \(split)")
        }
    }

    func testAFrameWithABadTrailerIsRefusedAloneAndTheNextOneReads() throws {
        var reassembler = Reassembler(format: format)
        var corrupt = frames[0]
        corrupt[4] ^= 0x01
        let completed = try reassembler.append(corrupt + frames[1])
        XCTAssertEqual(completed.count, 2, "the length was intact: both frames are cut out")
        XCTAssertNotNil(expectError { () throws(FramingError) in _ = try format.message(ofFrame: completed[0]) })
        XCTAssertEqual(try format.message(ofFrame: completed[1]), messages[1])
    }

    func testATrailerTheLengthCountsIsPartOfTheAnnouncedLength() throws {
        var counted = format
        counted.trailer?.countedInLength = true
        let frame = try counted.frame(message: messages[0])
        XCTAssertEqual(frame, hexBytes("01 0600 e8030000 379c"))
        var reassembler = Reassembler(format: counted)
        var completed: [[UInt8]] = []
        for byte in frame + frame { completed += try reassembler.append([byte]) }
        XCTAssertEqual(try messages(of: completed, counted), [messages[0], messages[0]])
        // A length of 1 cannot even hold the 2-byte trailer it counts.
        XCTAssertEqual(expectError { () throws(FramingError) in _ = try reassembler.append(hexBytes("01 0100")) },
                       .announcedLengthTooSmall(announced: 1, minimum: 2, streamOffset: 18))
    }

    func testAWholeFrameLengthWithACountedTrailer() throws {
        let format = LengthHeaderFormat(headerSize: 2, lengthWidth: 2, endianness: .big, lengthCounts: .frame,
                                        maximumPayloadLength: 16,
                                        trailer: FrameTrailer(checksum: FrameChecksum.named("crc32")!, countedInLength: true))
        let frame = try format.frame(message: hexBytes("aabb"))
        XCTAssertEqual(Array(frame.prefix(2)), hexBytes("0008"), "2 header + 2 payload + 4 trailer")
        var reassembler = Reassembler(format: format)
        XCTAssertEqual(try reassembler.append(frame), [frame])
        XCTAssertEqual(try format.message(ofFrame: frame), hexBytes("aabb"))
        XCTAssertEqual(expectError { () throws(FramingError) in _ = try reassembler.append(hexBytes("0005")) },
                       .announcedLengthTooSmall(announced: 5, minimum: 6, streamOffset: 8))
        XCTAssertEqual(expectError { () throws(FramingError) in _ = try reassembler.append(hexBytes("0017")) },
                       .announcedLengthTooLarge(announced: 23, limit: 22, streamOffset: 10))
    }

    func testSegmentedInsertedFramesWithTrailersRoundTrip() throws {
        let payloads = (0..<30).map { [UInt8($0)] + pseudoRandomBytes(count: $0 * 41 % 500, seed: UInt64($0 + 3)) }
        let framed = try payloads.map { message throws(FramingError) in try format.frame(message: message) }
        var reassembler = Reassembler(format: format)
        var completed: [[UInt8]] = []
        for write in Segmenter.segments(of: framed.flatMap { $0 }, maximumSize: 20) {
            completed += try reassembler.append(write)
        }
        XCTAssertEqual(try messages(of: completed, format), payloads)
    }
}
