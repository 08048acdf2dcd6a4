import XCTest
import DFUBytes

final class ReassemblerTests: XCTestCase {
    private let smp = LengthHeaderFormat(headerSize: 8, lengthOffset: 2, lengthWidth: 2, endianness: .big)
    private let vendor = LengthHeaderFormat(headerSize: 2, lengthWidth: 2, endianness: .little,
                                            maximumPayloadLength: 512)

    /// Two SMP frames back to back: an echo of "hello" and an empty-bodied one.
    private var smpFrames: [[UInt8]] {
        [hexBytes("0a 00 0009 0000 00 00  a1 61 64 65 68 65 6c 6c 6f"),
         hexBytes("0b 00 0000 0000 01 00")]
    }

    func testWholeFrameInOneNotification() throws {
        var reassembler = Reassembler(format: smp)
        XCTAssertEqual(try reassembler.append(smpFrames[0]), [smpFrames[0]])
        XCTAssertEqual(reassembler.bufferedByteCount, 0)
    }

    func testSeveralFramesInOneNotification() throws {
        var reassembler = Reassembler(format: vendor)
        let stream = hexBytes("0300 010203  0000  0100 ff  0200 aa")
        XCTAssertEqual(try reassembler.append(stream),
                       [hexBytes("0300 010203"), hexBytes("0000"), hexBytes("0100 ff")])
        XCTAssertEqual(reassembler.bufferedByteCount, 3)
        XCTAssertEqual(try reassembler.append([0xBB, 0x04]), [hexBytes("0200 aabb")])
        XCTAssertEqual(reassembler.bufferedByteCount, 1)
        XCTAssertEqual(try reassembler.append([0x00, 1, 2, 3, 4]), [hexBytes("0400 01020304")])
    }

    func testByteByByte() throws {
        var reassembler = Reassembler(format: smp)
        let stream = smpFrames.flatMap { $0 }
        var frames: [[UInt8]] = []
        for (index, byte) in stream.enumerated() {
            let completed = try reassembler.append([byte])
            // A frame completes exactly on its last byte, never earlier.
            if index == smpFrames[0].count - 1 || index == stream.count - 1 {
                XCTAssertEqual(completed.count, 1, "at byte \(index)")
            } else {
                XCTAssertEqual(completed, [], "at byte \(index)")
            }
            frames += completed
        }
        XCTAssertEqual(frames, smpFrames)
        XCTAssertEqual(reassembler.bufferedByteCount, 0)
        XCTAssertEqual(reassembler.streamByteCount, stream.count)
    }

    func testEverySplitIntoTwoAndThreeNotifications() throws {
        let stream = smpFrames.flatMap { $0 }
        for first in 0...stream.count {
            for second in first...stream.count {
                var reassembler = Reassembler(format: smp)
                var frames = try reassembler.append(Array(stream[..<first]))
                frames += try reassembler.append(Array(stream[first..<second]))
                frames += try reassembler.append(Array(stream[second...]))
                XCTAssertEqual(frames, smpFrames, "split at \(first), \(second)")
                XCTAssertEqual(reassembler.bufferedByteCount, 0)
            }
        }
    }

    func testFrameCountingFormat() throws {
        let format = LengthHeaderFormat(headerSize: 3, lengthOffset: 1, lengthWidth: 2, endianness: .little,
                                        lengthCounts: .frame)
        var reassembler = Reassembler(format: format)
        XCTAssertEqual(try reassembler.append(hexBytes("01 0500 aa")), [])
        XCTAssertEqual(try reassembler.append(hexBytes("bb 02 0300 03")),
                       [hexBytes("01 0500 aabb"), hexBytes("02 0300")])
        XCTAssertEqual(reassembler.bufferedByteCount, 1)
    }

    func testLengthAboveTheLimitIsRejectedWithOffsetAndReset() throws {
        var reassembler = Reassembler(format: vendor)
        XCTAssertEqual(try reassembler.append(hexBytes("0300 010203")), [hexBytes("0300 010203")])
        // 0x1000 = 4096 announced, limit 512, at stream byte 5; the header arrives split.
        XCTAssertEqual(try reassembler.append([0x00]), [])
        let error = expectError { () throws(FramingError) in _ = try reassembler.append([0x10, 0xAA]) }
        XCTAssertEqual(error, .announcedLengthTooLarge(announced: 4096, limit: 512, streamOffset: 5))
        XCTAssertEqual(error?.description.contains("stream byte 5 announces length 4096, above the limit of 512"), true)
        XCTAssertEqual(reassembler.bufferedByteCount, 0)
        // After the reset the next frame is read normally.
        XCTAssertEqual(try reassembler.append(hexBytes("0100 7f")), [hexBytes("0100 7f")])
    }

    func testLimitIsInclusive() throws {
        var reassembler = Reassembler(format: vendor)
        let largest = hexBytes("0002") + [UInt8](repeating: 9, count: 512)
        XCTAssertEqual(try reassembler.append(largest), [largest])
        XCTAssertEqual(expectError { () throws(FramingError) in _ = try reassembler.append(hexBytes("0102")) },
                       .announcedLengthTooLarge(announced: 513, limit: 512, streamOffset: 514))
    }

    func testBadFrameAfterGoodOnesInOneNotificationDropsEverything() {
        var reassembler = Reassembler(format: vendor)
        let error = expectError { () throws(FramingError) in
            _ = try reassembler.append(hexBytes("0100 01  ffff 00"))
        }
        XCTAssertEqual(error, .announcedLengthTooLarge(announced: 0xFFFF, limit: 512, streamOffset: 3))
        XCTAssertEqual(reassembler.bufferedByteCount, 0)
        XCTAssertEqual(reassembler.streamByteCount, 6)
    }

    func testFrameLengthSmallerThanTheHeaderIsRejected() throws {
        let format = LengthHeaderFormat(headerSize: 4, lengthOffset: 0, lengthWidth: 2, endianness: .big,
                                        lengthCounts: .frame, maximumPayloadLength: 100)
        var reassembler = Reassembler(format: format)
        XCTAssertEqual(try reassembler.append(hexBytes("0004 0000")), [hexBytes("0004 0000")])
        XCTAssertEqual(expectError { () throws(FramingError) in _ = try reassembler.append(hexBytes("0003 0000")) },
                       .announcedLengthTooSmall(announced: 3, minimum: 4, streamOffset: 4))
        XCTAssertEqual(reassembler.bufferedByteCount, 0)
        // With .frame counting the limit is on the whole frame: 100 + 4. The stream offset
        // counts the 4 rejected bytes too: 4 + 4 + 104 = 112.
        XCTAssertEqual(try reassembler.append(hexBytes("0068") + Array(repeating: 0, count: 102)).count, 1)
        XCTAssertEqual(expectError { () throws(FramingError) in _ = try reassembler.append(hexBytes("0069")) },
                       .announcedLengthTooLarge(announced: 105, limit: 104, streamOffset: 112))
    }

    func testResetDropsAPartialFrame() throws {
        var reassembler = Reassembler(format: smp)
        XCTAssertEqual(try reassembler.append(Array(smpFrames[0].prefix(11))), [])
        XCTAssertEqual(reassembler.bufferedByteCount, 11)
        reassembler.reset()
        XCTAssertEqual(reassembler.bufferedByteCount, 0)
        XCTAssertEqual(try reassembler.append(smpFrames[1]), [smpFrames[1]])
    }

    func testInvalidFormatIsReportedOnAppend() {
        var reassembler = Reassembler(format: LengthHeaderFormat(headerSize: 2, lengthWidth: 3, endianness: .big))
        XCTAssertEqual(expectError { () throws(FramingError) in _ = try reassembler.append([0, 0, 0]) },
                       .unsupportedLengthWidth(3))
    }

    func testSegmentedFramesReassembleIntoTheOriginals() throws {
        // Encoder -> segmenter -> reassembler round trip over many random payloads.
        let format = LengthHeaderFormat(headerSize: 2, lengthWidth: 2, endianness: .big, maximumPayloadLength: 4_096)
        let payloads = (0..<40).map { pseudoRandomBytes(count: $0 * 37 % 700, seed: UInt64($0 + 1)) }
        let frames = try payloads.map { payload throws(FramingError) in try format.frame(payload: payload) }
        let writes = Segmenter.segments(of: frames.flatMap { $0 }, maximumSize: 20)
        var reassembler = Reassembler(format: format)
        var received: [[UInt8]] = []
        for write in writes { received += try reassembler.append(write) }
        XCTAssertEqual(received, frames)
        XCTAssertEqual(received.map(format.payload(ofFrame:)), payloads)
    }
}
