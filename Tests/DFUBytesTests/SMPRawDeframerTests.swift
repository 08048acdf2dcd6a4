import XCTest
import DFUBytes

/// Raw binary SMP over a UART (Zephyr's `CONFIG_MCUMGR_TRANSPORT_RAW_UART`): messages of smp
/// 4.2.0, which smpclient 7.3.0's `SMPSerialRawTransport` writes as they are (printed by
/// Fixtures/serial-codec-vectors.py).
final class SMPRawDeframerTests: XCTestCase {
    /// `EchoWriteRequest(d="hello", sequence=0x42).BYTES`.
    private let echoRequest = hexBytes("0a 00 0009 0000 42 00  a1 61 64 65 68 65 6c 6c 6f")
    /// `EchoWriteResponse(r="hello", sequence=0x42).BYTES`.
    private let echoResponse = hexBytes("0b 00 0009 0000 42 00  a1 61 72 65 68 65 6c 6c 6f")
    /// `ImageUploadWriteRequest(off=0, data=<300 bytes>, image=0, len=4096, sha=bytes(range(32)),
    /// sequence=7).BYTES`: 374 bytes, the data being TestSupport's generator with seed 0x5EED.
    private var imageUpload: [UInt8] {
        hexBytes("0a 00 016e 0001 07 01")
            + hexBytes("a5 636c656e 191000 636f6666 00 63736861 5820 000102030405060708090a0b0c0d0e0f"
                + "101112131415161718191a1b1c1d1e1f 6464617461 59012c")
            + pseudoRandomBytes(count: 300, seed: 0x5EED)
            + hexBytes("65696d616765 00")
    }

    func testMessagesBackToBackInEverySplit() {
        let messages = [echoRequest, imageUpload, echoResponse]
        XCTAssertEqual(imageUpload.count, 374)
        assertSameOutputsInEverySplit(of: messages.flatMap { $0 }, expected: messages.map { SMPRawDeframerOutput.message($0) },
                                      make: { SMPRawDeframer() }, feed: { $0.feed($1) }, finish: { $0.idle() })
    }

    func testHeaderOnlyMessage() {
        var deframer = SMPRawDeframer()
        let header = hexBytes("0b 00 0000 0000 01 05")
        XCTAssertEqual(deframer.feed(header + echoRequest.prefix(3)), [.message(header)])
        XCTAssertEqual(deframer.streamByteCount, 11)
    }

    /// As Zephyr's `mcumgr_serial_process_frag` with `CONFIG_MCUMGR_TRANSPORT_NETBUF_SIZE` 384:
    /// a header announcing more is dropped once its 8 bytes are in, and the next byte starts a
    /// new header.
    func testMessageAboveTheLimitIsDroppedAtItsHeader() {
        let tooLong = hexBytes("0a 00 0179 0001 07 01")  // 8 + 377 = 385 bytes
        let discarded = SMPRawDiscard(reason: .messageTooLong(announced: 385, limit: 384), messageOffset: 0, byteCount: 8)
        assertSameOutputsInEverySplit(of: tooLong + echoRequest, expected: [.discarded(discarded), .message(echoRequest)],
                                      make: { SMPRawDeframer() }, feed: { $0.feed($1) })
        XCTAssertEqual(discarded.description,
                       "raw SMP message at stream byte 0 discarded (8 bytes): header announces 385 bytes, above the limit of 384")
        var small = SMPRawDeframer(maximumMessageLength: 17)
        XCTAssertEqual(small.feed(echoRequest + imageUpload.prefix(8)),
                       [.message(echoRequest),
                        .discarded(SMPRawDiscard(reason: .messageTooLong(announced: 374, limit: 17), messageOffset: 17,
                                                 byteCount: 8))])
    }

    func testUnknownOperationIsDropped() {
        let bad = hexBytes("0c 00 0000 0000 00 00")  // version 1, operation 4
        let discarded = SMPRawDiscard(reason: .unknownOperation(4), messageOffset: 0, byteCount: 8)
        assertSameOutputsInEverySplit(of: bad + echoResponse, expected: [.discarded(discarded), .message(echoResponse)],
                                      make: { SMPRawDeframer() }, feed: { $0.feed($1) })
        XCTAssertEqual(discarded.description,
                       "raw SMP message at stream byte 0 discarded (8 bytes): header operation 4 is not an SMP operation (0 to 3)")
    }

    func testIdleDropsAPartialMessage() {
        var deframer = SMPRawDeframer()
        XCTAssertEqual(deframer.idle(), [])
        XCTAssertEqual(deframer.feed(echoRequest.prefix(12)), [])
        let partBody = SMPRawDiscard(reason: .incompleteAtIdle(received: 12, expected: 17), messageOffset: 0, byteCount: 12)
        XCTAssertEqual(deframer.idle(), [.discarded(partBody)])
        XCTAssertEqual(partBody.description,
                       "raw SMP message at stream byte 0 discarded (12 bytes): the line went idle after 12 of the 17 bytes "
                           + "its header announced")
        XCTAssertEqual(deframer.feed(echoResponse.prefix(5)), [])
        let partHeader = SMPRawDiscard(reason: .incompleteAtIdle(received: 5, expected: nil), messageOffset: 12, byteCount: 5)
        XCTAssertEqual(deframer.idle(), [.discarded(partHeader)])
        XCTAssertEqual(partHeader.description,
                       "raw SMP message at stream byte 12 discarded (5 bytes): the line went idle after 5 of the 8 header bytes")
        XCTAssertEqual(deframer.feed(echoResponse), [.message(echoResponse)])
        XCTAssertEqual(deframer.idle(), [])
    }

    /// A message cut short and followed by the next: without idle the deframer reads the next
    /// message's bytes as the rest of the first and then as a header, as Zephyr's receiver
    /// would; the timeout is what brings the stream back.
    func testOnlyIdleResynchronises() {
        var deframer = SMPRawDeframer()
        // The response's bytes 7 to 14, "00 a1 61 72 65 68 65 6c", read as a header: 8 + 0x6172.
        XCTAssertEqual(deframer.feed(Array(echoRequest.prefix(10)) + echoResponse),
                       [.message(Array(echoRequest.prefix(10)) + Array(echoResponse.prefix(7))),
                        .discarded(SMPRawDiscard(reason: .messageTooLong(announced: 24954, limit: 384), messageOffset: 17,
                                                 byteCount: 8))])
        XCTAssertEqual(deframer.idle(),
                       [.discarded(SMPRawDiscard(reason: .incompleteAtIdle(received: 2, expected: nil), messageOffset: 25,
                                                 byteCount: 2))])
        XCTAssertEqual(deframer.feed(echoRequest), [.message(echoRequest)])
    }
}
