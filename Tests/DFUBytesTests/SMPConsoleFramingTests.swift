import XCTest
import DFUBytes

/// One SMP console frame for a test vector: "start TEXT" or "continuation TEXT" -> the marker,
/// the base64 text and the newline.
func consoleFrame(_ line: String, file: StaticString = #filePath, line testLine: UInt = #line) -> [UInt8] {
    let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
    let marker: [UInt8]
    switch parts.first {
    case "start": marker = SMPConsoleFraming.packetStartMarker
    case "continuation": marker = SMPConsoleFraming.continuationMarker
    default:
        XCTFail("bad frame in test vector: \(line)", file: file, line: testLine)
        return []
    }
    return marker + Array((parts.count > 1 ? parts[1] : "").utf8) + [0x0A]
}

/// SMP over a serial console: golden frames from smp 4.2.0's `smp.packet.encode` (the encoder
/// smpclient 7.3.0 sends with; Fixtures/serial-codec-vectors.py prints them) and from Zephyr's
/// device-side `mcumgr_serial_tx_pkt`.
final class SMPConsoleFramingTests: XCTestCase {
    /// `smp.os_management.EchoWriteRequest(d="hello", sequence=0x42).BYTES` of smp 4.2.0.
    private let echoRequest = hexBytes("0a 00 0009 0000 42 00  a1 61 64 65 68 65 6c 6c 6f")

    /// TestSupport's generator with the seed the script used.
    private func packet(_ count: Int) -> [UInt8] { pseudoRandomBytes(count: count, seed: 0x5EED) }

    private func frames(_ lines: String...) -> [[UInt8]] { lines.map { consoleFrame($0) } }

    // MARK: - Encoder against smp 4.2.0

    /// smp 4.2.0 `encode(echo, line_length=128)`, smpclient 7.3.0's default line.
    func testEchoRequestMatchesSmp() throws {
        XCTAssertEqual(try SMPConsoleEncoder().frames(for: echoRequest), frames("start ABMKAAAJAABCAKFhZGVoZWxsb0YZ"))
    }

    /// smp 4.2.0 `encode(b"", line_length=128)`: total length 2, CRC 0x0000.
    func testEmptyPacketMatchesSmp() throws {
        XCTAssertEqual(try SMPConsoleEncoder().wireBytes(for: []), consoleFrame("start AAIAAA=="))
    }

    /// The example in smp 4.2.0's `encode` docstring: `encode(b"Hello, world!", line_length=8)`.
    /// smp's `line_length` is one more than the longest frame, so this is `lineLength: 7`.
    func testDocstringExampleMatchesSmp() throws {
        XCTAssertEqual(try SMPConsoleEncoder(lineLength: 7).frames(for: Array("Hello, world!".utf8)),
                       frames("start AA9I", "continuation ZWxs", "continuation bywg", "continuation d29y",
                              "continuation bGQh", "continuation et4="))
    }

    /// smp 4.2.0, `line_length=128`: 89 bytes fill one 127-byte frame (2 + 89 + 2 = 93 bytes =
    /// 124 characters), 90 spill the CRC's last byte into a second, 182 fill two.
    func testFrameBoundaryMatchesSmp() throws {
        let encoder = SMPConsoleEncoder()
        XCTAssertEqual(try encoder.frames(for: packet(89)), frames(
            "start AFuUE1oDBGSvz2IYQk5puMNTlNHjDk9TH7GLBSgdr4+2TTKYyorBfS6EEZZZO5aFFJVJn1CJ+87jQebQ3Gz1lUSku56ymK91gcaGT74JINCpqwegyNCKfE1lfnul"))
        XCTAssertEqual(try encoder.frames(for: packet(90)), frames(
            "start AFyUE1oDBGSvz2IYQk5puMNTlNHjDk9TH7GLBSgdr4+2TTKYyorBfS6EEZZZO5aFFJVJn1CJ+87jQebQ3Gz1lUSku56ymK91gcaGT74JINCpqwegyNCKfE1lfqL/",
            "continuation VA=="))
        XCTAssertEqual(try encoder.frames(for: packet(182)), frames(
            "start ALiUE1oDBGSvz2IYQk5puMNTlNHjDk9TH7GLBSgdr4+2TTKYyorBfS6EEZZZO5aFFJVJn1CJ+87jQebQ3Gz1lUSku56ymK91gcaGT74JINCpqwegyNCKfE1lfqJP",
            "continuation MlGov3WjfLUkvdiXhOemFbOI6X2rrnZ3fObav+ltP5ecnFT2SdQmNeuXkgZPaK/M7hzSeZZKhaDmBbWMHCuoMzg/HEboe/IwuJtMMjgi6Tqz6dTtr5V2dP7cFH3Q"))
        XCTAssertEqual(try encoder.frames(for: packet(89)).map(\.count), [127])
        XCTAssertEqual(try encoder.frames(for: packet(90)).map(\.count), [127, 7])
    }

    /// smp 4.2.0, a 600-byte packet at `line_length=128` (127-byte frames).
    private let sixHundredAt127 = [
        "start AlqUE1oDBGSvz2IYQk5puMNTlNHjDk9TH7GLBSgdr4+2TTKYyorBfS6EEZZZO5aFFJVJn1CJ+87jQebQ3Gz1lUSku56ymK91gcaGT74JINCpqwegyNCKfE1lfqJP",
        "continuation MlGov3WjfLUkvdiXhOemFbOI6X2rrnZ3fObav+ltP5ecnFT2SdQmNeuXkgZPaK/M7hzSeZZKhaDmBbWMHCuoMzg/HEboe/IwuJtMMjgi6Tqz6dTtr5V2dP7cFK8U",
        "continuation 3WLcMyRjRcAikX5hdDBp2fviclv/QIW6AfC4/1P8ccg0259E/jZ/TGRWpQFo7qKexElhigTMVes5Tc5HDx4RcFxQB3V0FXh8MEJD2cyvPbWQXgbgHpn66R0BwsR8",
        "continuation bmzl1jlNlZcfUD963NhJWkewPn7RIz8EapcFSW+j0oUQTLbnNmGrOPDSTDlkBSK07mm7T+qV721ov8IPOkybAW1ucee5q7MjjvozFX9lSZgEe/SsrxXGBxukkreu",
        "continuation K9yX8IoLiwkWx4u/a0HILoy7lkMvVNdKyWk39vxNSU6gNLaY6/qD2KAV0SgOMmM9b2GQ2zCX8J26gHtR+zOCWGxyqOnkLaKzJC5y7AfAMokCDgt0v8IBhh33LavW",
        "continuation 93jPPGe7Cq1yqBDMvox9qRUZ0QRQ1UB010pV6o6Wpj+AMcPjOiA8bo9spbaWRBxmQu4cZDx7zEpnl31BC3fui55WYHcWzuzOQ5nSQlz3FzH7lvz60DNJBhbmkZ+j",
        "continuation ZrR8q2XuSHv/+7m1y8EDLcp/brZCRu1vai7KwW5NZOfcT+xRVB2CBN/oUw1Seg==",
    ]

    /// smp 4.2.0, the same packet at smp's own default `line_length=127` (123-byte frames).
    private let sixHundredAt126 = [
        "start AlqUE1oDBGSvz2IYQk5puMNTlNHjDk9TH7GLBSgdr4+2TTKYyorBfS6EEZZZO5aFFJVJn1CJ+87jQebQ3Gz1lUSku56ymK91gcaGT74JINCpqwegyNCKfE1l",
        "continuation fqJPMlGov3WjfLUkvdiXhOemFbOI6X2rrnZ3fObav+ltP5ecnFT2SdQmNeuXkgZPaK/M7hzSeZZKhaDmBbWMHCuoMzg/HEboe/IwuJtMMjgi6Tqz6dTtr5V2",
        "continuation dP7cFK8U3WLcMyRjRcAikX5hdDBp2fviclv/QIW6AfC4/1P8ccg0259E/jZ/TGRWpQFo7qKexElhigTMVes5Tc5HDx4RcFxQB3V0FXh8MEJD2cyvPbWQXgbg",
        "continuation Hpn66R0BwsR8bmzl1jlNlZcfUD963NhJWkewPn7RIz8EapcFSW+j0oUQTLbnNmGrOPDSTDlkBSK07mm7T+qV721ov8IPOkybAW1ucee5q7MjjvozFX9lSZgE",
        "continuation e/SsrxXGBxukkreuK9yX8IoLiwkWx4u/a0HILoy7lkMvVNdKyWk39vxNSU6gNLaY6/qD2KAV0SgOMmM9b2GQ2zCX8J26gHtR+zOCWGxyqOnkLaKzJC5y7AfA",
        "continuation MokCDgt0v8IBhh33LavW93jPPGe7Cq1yqBDMvox9qRUZ0QRQ1UB010pV6o6Wpj+AMcPjOiA8bo9spbaWRBxmQu4cZDx7zEpnl31BC3fui55WYHcWzuzOQ5nS",
        "continuation Qlz3FzH7lvz60DNJBhbmkZ+jZrR8q2XuSHv/+7m1y8EDLcp/brZCRu1vai7KwW5NZOfcT+xRVB2CBN/oUw1Seg==",
    ]

    func testSixHundredBytesMatchSmpAtTwoLineLengths() throws {
        XCTAssertEqual(try SMPConsoleEncoder().frames(for: packet(600)), sixHundredAt127.map { consoleFrame($0) })
        XCTAssertEqual(try SMPConsoleEncoder(lineLength: 126).frames(for: packet(600)), sixHundredAt126.map { consoleFrame($0) })
        XCTAssertEqual(SMPConsoleEncoder().base64CharactersPerFrame, 124)
        XCTAssertEqual(try SMPConsoleEncoder(lineLength: 126).base64CharactersPerFrame, 120)
    }

    /// smp 4.2.0 at `line_length=4096` (4095-byte frames, as smpmgr users set for fast USB
    /// links): frame lengths and the SHA-256 of the wire bytes the script printed.
    func testLongLinesMatchSmp() throws {
        let encoder = try SMPConsoleEncoder(lineLength: 4095)
        let vectors: [(count: Int, lengths: [Int], sha256: String)] = [
            (600, [811], "a738cec2cde5caab31f46702101af0601df6c2438a12faac7cdbae252a8f75bf"),
            (3065, [4095], "8a74b12978f9776a03c8ea8280509ade56992d363622f2cb946784c071b002ef"),
            (3066, [4095, 7], "f82ddf4fd6097e4feeeebbede19cafc4e6d08b60b034c0c1a9712a62fae8fad5"),
            (7000, [4095, 4095, 1159], "42a6772a944c3efe36a512427926603f072b8f6a9c078fd6f293efb17d9b5858"),
        ]
        for vector in vectors {
            let frames = try encoder.frames(for: packet(vector.count))
            XCTAssertEqual(frames.map(\.count), vector.lengths, "\(vector.count) bytes")
            XCTAssertEqual(SHA256.digest(frames.flatMap { $0 }).hexString, vector.sha256, "\(vector.count) bytes")
        }
    }

    func testEncoderRefusesWhatItCannotFrame() {
        XCTAssertEqual(expectError { () throws(SMPConsoleEncodingError) in _ = try SMPConsoleEncoder(lineLength: 6) },
                       .lineLengthTooShort(lineLength: 6))
        let tooLong = [UInt8](repeating: 0, count: 65534)
        let error = expectError { () throws(SMPConsoleEncodingError) in _ = try SMPConsoleEncoder().frames(for: tooLong) }
        XCTAssertEqual(error, .packetTooLong(length: 65534))
        XCTAssertEqual(error?.description, "an SMP packet of 65534 bytes does not fit the console framing's 16-bit length; "
                           + "at most 65533 bytes")
        XCTAssertEqual(try SMPConsoleEncoder().frames(for: [UInt8](repeating: 0, count: 65533)).count, 705)
    }

    // MARK: - Decoder against the golden frames

    func testDecoderReadsSmpFramesInEverySplit() {
        let cases: [(packet: [UInt8], wire: [UInt8], decoder: () -> SMPConsoleDecoder)] = [
            (echoRequest, consoleFrame("start ABMKAAAJAABCAKFhZGVoZWxsb0YZ"), { SMPConsoleDecoder() }),
            ([], consoleFrame("start AAIAAA=="), { SMPConsoleDecoder() }),
            (packet(600), sixHundredAt127.flatMap { consoleFrame($0) }, { SMPConsoleDecoder() }),
            (packet(600), sixHundredAt126.flatMap { consoleFrame($0) }, { SMPConsoleDecoder() }),
            (Array("Hello, world!".utf8), frames("start AA9I", "continuation ZWxs", "continuation bywg",
                                                 "continuation d29y", "continuation bGQh", "continuation et4=")
                .flatMap { $0 }, { SMPConsoleDecoder() }),
        ]
        for (packet, wire, decoder) in cases {
            assertSameOutputsInEverySplit(of: wire, expected: [SMPConsoleOutput.packet(packet)], make: decoder,
                                          feed: { $0.feed($1) })
        }
    }

    /// What a Zephyr device answers with: `mcumgr_serial_tx_pkt` of
    /// `subsys/mgmt/mcumgr/transport/src/serial_util.c` (the copy in nrfconnect/sdk-nrf-bm at
    /// 2a13184c, the same function as Zephyr's main branch in 2026), compiled for the host with
    /// stand-ins for Zephyr's base64, CRC and net_buf. It never splits the CRC (90 bytes: packet
    /// bytes move to the second frame with it) and, past the first frame, writes 123-byte frames
    /// (the first frame's 3-byte reduction of `max_input` is kept). smp's cut differs; the
    /// decoder reads both.
    func testDecoderReadsZephyrDeviceFrames() {
        let zephyrNinety = frames(
            "start AFyUE1oDBGSvz2IYQk5puMNTlNHjDk9TH7GLBSgdr4+2TTKYyorBfS6EEZZZO5aFFJVJn1CJ+87jQebQ3Gz1lUSku56ymK91gcaGT74JINCpqwegyNCKfE1l",
            "continuation fqL/VA==")
        let zephyrTwoHundred = frames(
            "start AMqUE1oDBGSvz2IYQk5puMNTlNHjDk9TH7GLBSgdr4+2TTKYyorBfS6EEZZZO5aFFJVJn1CJ+87jQebQ3Gz1lUSku56ymK91gcaGT74JINCpqwegyNCKfE1lfqJP",
            "continuation MlGov3WjfLUkvdiXhOemFbOI6X2rrnZ3fObav+ltP5ecnFT2SdQmNeuXkgZPaK/M7hzSeZZKhaDmBbWMHCuoMzg/HEboe/IwuJtMMjgi6Tqz6dTtr5V2dP7c",
            "continuation FK8U3WLcMyRjRcAikX5hdDBp2Uyl")
        XCTAssertEqual(zephyrNinety.map(\.count), [123, 11])
        XCTAssertEqual(zephyrTwoHundred.map(\.count), [127, 123, 31])
        // The echo request fits one frame, which both cut alike.
        XCTAssertEqual(consoleFrame("start ABMKAAAJAABCAKFhZGVoZWxsb0YZ"), try SMPConsoleEncoder().wireBytes(for: echoRequest))

        let stream = (zephyrNinety + zephyrTwoHundred).flatMap { $0 }
        assertSameOutputsInEverySplit(of: stream, expected: [SMPConsoleOutput.packet(packet(90)), .packet(packet(200))],
                                      make: { SMPConsoleDecoder() }, feed: { $0.feed($1) })
    }

    func testRoundTripAtSeveralLineLengths() throws {
        for lineLength in [7, 8, 10, 11, 126, 127, 128, 4095] {
            let encoder = try SMPConsoleEncoder(lineLength: lineLength)
            var decoder = SMPConsoleDecoder(maximumFrameLength: lineLength)
            for count in [0, 1, 2, 3, 4, 5, 88, 89, 90, 91, 300] {
                let frames = try encoder.frames(for: packet(count))
                XCTAssertTrue(frames.allSatisfy { $0.count <= lineLength }, "line \(lineLength), \(count) bytes")
                XCTAssertEqual(decoder.feed(frames.flatMap { $0 }), [.packet(packet(count))], "line \(lineLength), \(count) bytes")
            }
        }
    }
}
