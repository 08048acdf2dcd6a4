import XCTest
import DFUBytes

/// SLIP as Nordic's serial DFU frames it. The golden bytes come from nrfutil 5.2.0 (PyPI sdist):
/// its `Slip` class of `nordicsemi/dfu/dfu_transport_serial.py` run as shipped, by
/// Fixtures/serial-codec-vectors.py.
final class SLIPCodecTests: XCTestCase {
    /// Packet -> what `nrfutil dfu serial` writes (nrfutil 5.2.0 `Slip.encode`).
    private let nrfutilVectors: [(label: String, packet: String, wire: String)] = [
        ("ping", "0901", "0901 c0"),
        ("set PRN 0", "020000", "020000 c0"),
        ("every special byte", "c0 db dc dd 00 db dc c0 dd c0",
         "dbdc dbdd dc dd 00 dbdd dc dbdc dd dbdc c0"),
        ("empty", "", "c0"),
        ("write 32 pseudo-random bytes",
         "08 57d7dd56d7392d37578f4658abb0de6f018e6461e75bc689f53f5a844802c597",
         "08 57d7dd56d7392d37578f4658abb0de6f018e6461e75bc689f53f5a844802c597 c0"),
    ]

    func testEncoderMatchesNrfutil() {
        for vector in nrfutilVectors {
            XCTAssertEqual(SLIPEncoder().encode(hexBytes(vector.packet)), hexBytes(vector.wire), vector.label)
        }
        // The 32 bytes are TestSupport's generator with seed 0xC0DB, as the script made them.
        XCTAssertEqual([0x08] + pseudoRandomBytes(count: 32, seed: 0xC0DB), hexBytes(nrfutilVectors[4].packet))
    }

    /// nrfutil 5.2.0's `nordicsemi/bluetooth/hci/slip.py` puts END in front as well.
    func testLeadingEndMatchesNrfutilHCISlip() {
        let encoder = SLIPEncoder(sendsLeadingEnd: true)
        XCTAssertEqual(encoder.encode(hexBytes("0901")), hexBytes("c0 0901 c0"))
        XCTAssertEqual(encoder.encode(hexBytes("c0 db dc dd 00 db dc c0 dd c0")),
                       hexBytes("c0 dbdc dbdd dc dd 00 dbdd dc dbdc dd dbdc c0"))
    }

    func testDecoderReadsBackEveryNrfutilVectorInEverySplit() {
        let stream = nrfutilVectors.flatMap { hexBytes($0.wire) }
        // The empty packet's lone END is an empty frame, which the decoder ignores.
        let expected = nrfutilVectors.map(\.packet).filter { !$0.isEmpty }.map { SLIPDecoderOutput.frame(hexBytes($0)) }
        assertSameOutputsInEverySplit(of: stream, expected: expected, make: { SLIPDecoder() },
                                      feed: { $0.feed($1) })
    }

    /// nrfutil 5.2.0's `Slip.decode_add_byte` on "0901 c0 02 dbdc 00 c0" gives 0901 and 02c000.
    func testDecoderAgreesWithNrfutilOnTwoFrames() {
        var decoder = SLIPDecoder()
        XCTAssertEqual(decoder.feed(hexBytes("0901c0 02dbdc00c0")), [.frame(hexBytes("0901")), .frame(hexBytes("02c000"))])
        XCTAssertEqual(decoder.streamByteCount, 8)
    }

    func testEmptyFramesAreIgnoredWithLeadingEnds() {
        let stream = hexBytes("c0 c0 0901 c0 c0 c0 02 c0")
        assertSameOutputsInEverySplit(of: stream, expected: [.frame([0x09, 0x01]), .frame([0x02])],
                                      make: { SLIPDecoder() }, feed: { $0.feed($1) })
    }

    /// nrfutil 5.2.0 gives ['0901'] for "01 db 01 02 c0 0901 c0": the bad frame is dropped up to
    /// its END. This decoder agrees, and says so.
    func testBadEscapeDiscardsTheFrameUpToItsEnd() {
        let stream = hexBytes("01 db 01 02 c0 0901 c0")
        let discard = SLIPDiscardedFrame(reason: .badEscape(byte: 0x01), frameOffset: 0, offset: 2)
        assertSameOutputsInEverySplit(of: stream, expected: [.discarded(discard), .frame([0x09, 0x01])],
                                      make: { SLIPDecoder() }, feed: { $0.feed($1) })
        XCTAssertEqual(discard.description,
                       "SLIP frame at stream byte 0 discarded: ESC at byte 1 is followed by 0x01, not 0xDC or 0xDD; "
                           + "the rest of the frame up to the next END is skipped")
    }

    /// nrfutil 5.2.0 gives only ['0a0b'] for "01 db c0 0901 c0 0a0b c0": taking the END after ESC
    /// as the bad byte, it loses the next frame too. Here the END ends the bad frame.
    func testEscapeBeforeEndLosesOnlyItsOwnFrame() {
        let stream = hexBytes("01 db c0 0901 c0 0a0b c0")
        let discard = SLIPDiscardedFrame(reason: .badEscape(byte: 0xC0), frameOffset: 0, offset: 2)
        assertSameOutputsInEverySplit(of: stream,
                                      expected: [.discarded(discard), .frame([0x09, 0x01]), .frame([0x0A, 0x0B])],
                                      make: { SLIPDecoder() }, feed: { $0.feed($1) })
    }

    func testOverlongFrameIsDiscardedAndTheNextOneRead() {
        // Four decoded bytes allowed: "dbdc" counts as one.
        let stream = hexBytes("01 02 03 dbdc c0  01 02 03 04 05 06 c0  aa c0")
        let discard = SLIPDiscardedFrame(reason: .overlong(limit: 4), frameOffset: 6, offset: 10)
        assertSameOutputsInEverySplit(of: stream,
                                      expected: [.frame([1, 2, 3, 0xC0]), .discarded(discard), .frame([0xAA])],
                                      make: { SLIPDecoder(maximumFrameLength: 4) }, feed: { $0.feed($1) })
        XCTAssertEqual(discard.description,
                       "SLIP frame at stream byte 6 discarded: it decodes to more than 4 bytes (byte 10 is past the limit); "
                           + "the rest of the frame up to the next END is skipped")
    }

    func testOverlongByAnEscapedByte() {
        var decoder = SLIPDecoder(maximumFrameLength: 2)
        XCTAssertEqual(decoder.feed(hexBytes("01 02 dbdd 03 c0 05 c0")),
                       [.discarded(SLIPDiscardedFrame(reason: .overlong(limit: 2), frameOffset: 0, offset: 3)),
                        .frame([0x05])])
    }

    func testUnfinishedFrameWaitsForItsEnd() {
        var decoder = SLIPDecoder()
        XCTAssertEqual(decoder.feed(hexBytes("09 01 db")), [])
        XCTAssertEqual(decoder.feed(hexBytes("dc")), [])
        XCTAssertEqual(decoder.feed(hexBytes("c0")), [.frame([0x09, 0x01, 0xC0])])
    }

    func testRoundTripOfPseudoRandomPackets() {
        var decoder = SLIPDecoder(maximumFrameLength: 600)
        for (index, count) in [1, 2, 17, 255, 600].enumerated() {
            let packet = pseudoRandomBytes(count: count, seed: UInt64(index + 1))
            XCTAssertEqual(decoder.feed(SLIPEncoder(sendsLeadingEnd: index.isMultiple(of: 2)).encode(packet)),
                           [.frame(packet)])
        }
    }
}
