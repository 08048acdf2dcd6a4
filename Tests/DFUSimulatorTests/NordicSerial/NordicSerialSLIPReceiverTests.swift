import DFUBytes
import XCTest
@testable import DFUSimulator

/// The bootloader's SLIP receiver alone, byte by byte as slip.c's `slip_decode_add_byte` is
/// fed, against the walk-through of slip.c in `NordicSerialSLIPReceiver`'s documentation.
final class NordicSerialSLIPReceiverTests: XCTestCase {
    private func packets(_ events: [NordicSerialSLIPReceiver.Event]) -> [[UInt8]] {
        events.compactMap { if case let .packet(packet) = $0 { packet } else { nil } }
    }

    func testFramesReadTheSameInAnySplit() {
        let stream: [UInt8] = [0x09, 0x01, 0xC0, 0x08, 0xDB, 0xDC, 0xDB, 0xDD, 0xC0, 0x07, 0xC0]
        for split in 0...stream.count {
            var receiver = NordicSerialSLIPReceiver(bufferLength: 131)
            let events = receiver.receive(Array(stream[..<split])) + receiver.receive(Array(stream[split...]))
            XCTAssertEqual(packets(events), [[0x09, 0x01], [0x08, 0xC0, 0xDB], [0x07]], "split at \(split)")
        }
    }

    func testEscapeEndClearsThroughTheNextEnd() {
        var receiver = NordicSerialSLIPReceiver(bufferLength: 131)
        let events = receiver.receive([0x09, 0xDB, 0xC0, 0x09, 0x02, 0xC0, 0x09, 0x03, 0xC0])
        XCTAssertEqual(packets(events), [[0x09, 0x03]])
        XCTAssertEqual(receiver.ignoredByteCount, 3, "09 02 C0")
        // END right after the bad one ends the clearing at once: the next frame is read.
        var again = NordicSerialSLIPReceiver(bufferLength: 131)
        XCTAssertEqual(packets(again.receive([0xDB, 0xC0, 0xC0, 0x09, 0x04, 0xC0])), [[0x09, 0x04]])
    }

    func testTheLongestFrameIsOneByteShortOfTheBuffer() {
        var fits = NordicSerialSLIPReceiver(bufferLength: 8)
        XCTAssertEqual(packets(fits.receive(Array(1...7) + [0xC0])), [Array(1...7)])
        XCTAssertEqual(fits.state, .decoding)
        var full = NordicSerialSLIPReceiver(bufferLength: 8)
        let events = full.receive(Array(1...8) + [0xC0, 0x09, 0x01, 0xC0])
        XCTAssertEqual(packets(events), [], "slip.c refuses END once the buffer holds 8 bytes, and all after it")
        XCTAssertEqual(full.state, .bufferFull)
        XCTAssertEqual(full.ignoredByteCount, 4)
        // An escaped byte counts once: 6 + DB DC fit, and 7 + DB DC do not.
        var escaped = NordicSerialSLIPReceiver(bufferLength: 8)
        XCTAssertEqual(packets(escaped.receive(Array(1...6) + [0xDB, 0xDC, 0xC0])), [Array(1...6) + [0xC0]])
        XCTAssertEqual(packets(escaped.receive(Array(1...7) + [0xDB, 0xDC, 0xC0])), [])
        XCTAssertEqual(escaped.state, .bufferFull)
    }
}
