import XCTest
import DFUBytes

/// The SMP console decoder on what a real console mixes in, and on malformed frames. The good
/// frames are smp 4.2.0's (see SMPConsoleFramingTests); the bad ones are those with bytes changed.
final class SMPConsoleDecoderTests: XCTestCase {
    /// smp 4.2.0 `encode(b"Hello, world!", line_length=8)`: six 7-byte frames.
    private let hello = ["start AA9I", "continuation ZWxs", "continuation bywg", "continuation d29y",
                         "continuation bGQh", "continuation et4="].map { consoleFrame($0) }
    private let helloPacket = Array("Hello, world!".utf8)
    /// smp 4.2.0 `encode(b"", line_length=128)`.
    private let empty = consoleFrame("start AAIAAA==")

    private func text(_ string: String) -> [UInt8] { Array(string.utf8) }

    private func check(_ pieces: [[UInt8]], _ expected: [SMPConsoleOutput], decoder: @escaping () -> SMPConsoleDecoder = {
        SMPConsoleDecoder()
    }, file: StaticString = #filePath, line: UInt = #line) {
        assertSameOutputsInEverySplit(of: pieces.flatMap { $0 }, expected: expected, make: decoder,
                                      feed: { $0.feed($1) }, file: file, line: line)
    }

    private func discard(_ reason: SMPConsoleDiscard.Reason, frame: Int, packet: Int?) -> SMPConsoleOutput {
        .discarded(SMPConsoleDiscard(reason: reason, frameOffset: frame, packetOffset: packet))
    }

    /// A log line printed between two frames of one packet is reported and the packet still
    /// assembles, as Zephyr's `mcumgr_serial_process_frag` ignores a line with no marker.
    func testLogLineBetweenFramesDoesNotBreakThePacket() {
        check([text("*** Booting Zephyr OS ***\r\n")] + hello[0...2] + [text("[00:00:01.000] <inf> app: tick\n")] + hello[3...],
              [.consoleText("*** Booting Zephyr OS ***"), .consoleText("[00:00:01.000] <inf> app: tick"), .packet(helloPacket)])
    }

    /// A frame straight after a shell prompt with no newline is still found, as smpclient 7.3.0's
    /// `SMPSerialTransport` finds a marker anywhere in the serial data.
    func testFrameAfterAPromptWithoutNewline() {
        check([text("uart:~$ "), empty, text("uart:~$ \n")],
              [.consoleText("uart:~$ "), .packet([]), .consoleText("uart:~$ ")])
    }

    func testCarriageReturnBeforeTheNewlineIsDropped() {
        var frame = empty
        frame.insert(0x0D, at: frame.count - 1)
        check([frame, text("\r\n"), text("é\n")], [.packet([]), .consoleText(""), .consoleText("é")])
    }

    func testBadBase64DropsThePacketAndItsContinuations() {
        // 'Z' of the second frame's "ZWxs" made '*' at stream byte 7 + 2 = 9.
        var broken = hello
        broken[1][2] = UInt8(ascii: "*")
        check(broken + [empty], [discard(.badBase64(offset: 9), frame: 7, packet: 0), .packet([])])
    }

    func testBadPaddingIsBadBase64() {
        // "AA=A" pads in the middle of a group; "AAIAAA=" lacks a character of its last group, which
        // begins at stream byte 7 + 2 + 4.
        check([consoleFrame("start AA=A"), consoleFrame("start AAIAAA=")],
              [discard(.badBase64(offset: 4), frame: 0, packet: 0), discard(.badBase64(offset: 13), frame: 7, packet: 7)])
    }

    func testChecksumMismatchGivesBothValues() {
        // "AAIAAQ==": total length 2, CRC 0x0001 over no bytes, whose CRC is 0x0000.
        let discarded = SMPConsoleDiscard(reason: .checksumMismatch(received: 0x0001, computed: 0x0000), frameOffset: 0,
                                          packetOffset: 0)
        check([consoleFrame("start AAIAAQ=="), empty], [.discarded(discarded), .packet([])])
        XCTAssertEqual(discarded.description,
                       "SMP console frame at stream byte 0 discarded: packet CRC is 0x0001, its bytes give 0x0000 "
                           + "(packet from byte 0 dropped)")
    }

    func testMoreBytesThanTheTotalLength() {
        // "AAIAAAAA": total length 2, then 4 bytes.
        check([consoleFrame("start AAIAAAAA"), hello[1], empty],
              [discard(.lengthDisagreement(announced: 2, decoded: 4), frame: 0, packet: 0), .packet([])])
    }

    func testContinuationWithoutStart() {
        let discarded = SMPConsoleDiscard(reason: .continuationWithoutStart, frameOffset: 0, packetOffset: nil)
        check([hello[1], empty, hello[2]], [.discarded(discarded), .packet([]), discard(.continuationWithoutStart, frame: 18, packet: nil)])
        XCTAssertEqual(discarded.description,
                       "SMP console frame at stream byte 0 discarded: continuation frame (04 14) with no packet in progress")
    }

    func testNewStartAbandonsThePacketInProgress() {
        check(Array(hello[0...1]) + [empty],
              [discard(.abandonedForNewPacket(decoded: 4, announced: 15), frame: 14, packet: 0), .packet([])])
    }

    func testStartFrameWithoutLengthAndTooSmallLength() {
        // An empty text decodes to no bytes; "AAE=" is total length 1, less than the CRC's 2.
        check([consoleFrame("start "), consoleFrame("start AAE="), empty],
              [discard(.startFrameWithoutLength(decodedByteCount: 0), frame: 0, packet: 0),
               discard(.announcedLengthTooSmall(announced: 1), frame: 3, packet: 3), .packet([])])
    }

    func testAnnouncedLengthAboveTheLimit() {
        check(hello + [empty], [discard(.announcedLengthTooLarge(announced: 13, limit: 12), frame: 0, packet: 0), .packet([])],
              decoder: { SMPConsoleDecoder(maximumPacketLength: 12) })
    }

    func testOverlongFramesAreSkippedToTheirNewline() throws {
        // 600 bytes in 4095-byte lines reach a decoder of 127-byte lines: one 811-byte frame.
        let long = try SMPConsoleEncoder(lineLength: 4095).wireBytes(for: pseudoRandomBytes(count: 600))
        let discarded = SMPConsoleDiscard(reason: .overlongFrame(limit: 127), frameOffset: 0, packetOffset: 0)
        check([long, empty], [.discarded(discarded), .packet([])])
        XCTAssertEqual(discarded.description,
                       "SMP console frame at stream byte 0 discarded: longer than 127 bytes without a newline "
                           + "(packet from byte 0 dropped)")
        // A frame of exactly 127 bytes is fine; with "\r\n" it is 128.
        let full = try SMPConsoleEncoder().wireBytes(for: pseudoRandomBytes(count: 89))
        XCTAssertEqual(full.count, 127)
        var withReturn = full
        withReturn.insert(0x0D, at: 126)
        check([full, withReturn], [.packet(pseudoRandomBytes(count: 89)), discard(.overlongFrame(limit: 127), frame: 127, packet: 127)])
    }

    func testOverlongContinuationDropsThePacketInProgress() {
        let longContinuation = SMPConsoleFraming.continuationMarker + [UInt8](repeating: UInt8(ascii: "A"), count: 20) + [0x0A]
        check([hello[0], longContinuation, hello[1]], [discard(.overlongFrame(limit: 12), frame: 7, packet: 0)],
              decoder: { SMPConsoleDecoder(maximumFrameLength: 12) })
    }

    func testLongTextComesInPiecesAndKeepsAPossibleMarker() {
        // Ten-byte pieces; the 0x06 that ends a piece waits to see whether 0x09 follows.
        check([text("0123456789abcdefghi"), [0x06, 0x09], Array("AAIAAA==\n".utf8), text("tail\n")],
              [.consoleText("0123456789"), .consoleText("abcdefghi"), .packet([]), .consoleText("tail")],
              decoder: { SMPConsoleDecoder(maximumTextLineLength: 10) })
    }

    func testStreamByteCount() {
        var decoder = SMPConsoleDecoder()
        _ = decoder.feed(hello.flatMap { $0 })
        XCTAssertEqual(decoder.streamByteCount, 42)
        XCTAssertEqual(decoder.maximumPacketLength, SMPConsoleFraming.maximumPacketLength)
    }
}
