import DFUBytes
@testable import DFUEngine
import XCTest

/// How notifications become the messages response decoding sees: an inserted length taken
/// out, an overlaid one left in its header, trailers checked frame by frame.
final class NotificationMessagesTests: XCTestCase {
    private let inserted = LengthHeaderFormat(headerSize: 3, lengthOffset: 1, lengthWidth: 2, endianness: .little,
                                              trailer: FrameTrailer(checksum: FrameChecksum.named("crc16")!))
    private let overlaid = LengthHeaderFormat(headerSize: 8, lengthOffset: 2, lengthWidth: 2, endianness: .big,
                                              lengthField: .overlay)

    func testAnInsertedLengthAndTheTrailerAreTakenOutByteByByte() {
        var messages = NotificationMessages(framing: inserted)
        var received: [[UInt8]] = []
        for byte in [UInt8](hex: "01 0400 e8030000 7717 82 0100 00 a083")! {
            let now = messages.append([byte])
            XCTAssertEqual(now.garbage, [])
            received += now.messages
        }
        XCTAssertEqual(received, [[UInt8](hex: "01 e8030000")!, [UInt8](hex: "82 00")!])
    }

    func testAnOverlaidLengthStaysInTheMessage() {
        var messages = NotificationMessages(framing: overlaid)
        let frame = [UInt8](hex: "0b 00 0001 0000 07 00 a0")!
        XCTAssertEqual(messages.append(Array(frame.prefix(5))).messages, [])
        XCTAssertEqual(messages.append(Array(frame.dropFirst(5))).messages, [frame])
    }

    func testABadTrailerDropsOnlyItsFrame() {
        var messages = NotificationMessages(framing: inserted)
        let received = messages.append([UInt8](hex: "01 0400 e8030001 7717 82 0100 00 a083")!)
        XCTAssertEqual(received.messages, [[UInt8](hex: "82 00")!])
        XCTAssertEqual(received.garbage.count, 1)
        XCTAssertTrue(received.garbage[0].hasPrefix("garbage frame 010400e80300017717: the frame's crc16 trailer is 0x1777"),
                      received.garbage[0])
    }

    func testAnImpossibleLengthDropsTheNotificationAndStartsOver() {
        var format = inserted
        format.maximumPayloadLength = 16
        var messages = NotificationMessages(framing: format)
        let received = messages.append([UInt8](hex: "01 ffff 00")!)
        XCTAssertEqual(received.messages, [])
        XCTAssertEqual(received.garbage, ["garbage notification 01ffff00: frame at stream byte 0 announces length 65535, "
                                          + "above the limit of 16; the peer's framing does not match the profile, "
                                          + "or the stream lost bytes"])
        XCTAssertEqual(messages.append([UInt8](hex: "82 0100 00 a083")!).messages, [[UInt8](hex: "82 00")!])
    }

    func testWithoutAFramingOneNotificationIsOneMessage() {
        var messages = NotificationMessages(framing: nil)
        XCTAssertEqual(messages.append([1, 2, 3]).messages, [[1, 2, 3]])
    }
}
