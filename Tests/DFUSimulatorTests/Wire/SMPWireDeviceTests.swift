import DFUBytes
import DFUGATT
import DFUWire
import XCTest
@testable import DFUSimulator

/// Zephyr's SMP server over a console, raw UART and UDP: the existing `SMPServer` behind
/// Zephyr's transports, checked through the engine-facing `ByteWire`.
final class SMPWireDeviceTests: XCTestCase {
    private func endpoint(_ transport: SMPWireTransport, link: SimulatedWireLink = .serial(baud: 115_200),
                          consoleLog: ZephyrConsoleLog? = nil, faults: SimulatedWireFaults = SimulatedWireFaults(),
                          configure: (inout SMPServerSettings) -> Void = { _ in }) -> (SMPWireDevice, SimulatedWireEndpoint) {
        var settings = SMPServerSettings()
        settings.bufferSize = 384
        configure(&settings)
        let device = SMPWireDevice(transport: transport, settings: settings, lineLength: link.lineLength ?? 128,
                                   consoleLog: consoleLog)
        return (device, SimulatedWireEndpoint(device: device, link: link, faults: faults))
    }

    /// smpclient's echo request `{d: "hello"}`, sequence 0x42, in one console frame
    /// (DFUBytesTests' golden frame from smp 4.2.0).
    static let echoFrame = Array("\u{06}\u{09}ABMKAAAJAABCAKFhZGVoZWxsb0YZ\n".utf8)
    /// The answer `{r: "hello"}` (write response, SMP v2, sequence 0x42), framed as
    /// `mcumgr_serial_tx_pkt` frames it: total length 0x0013, the packet (header `0B 00 00 09 00 00 42 00`,
    /// body `A1 61 72 65 68 65 6C 6C 6F`), CRC-16/XMODEM 0xC0A5.
    static let echoAnswerFrame = Array("\u{06}\u{09}ABMLAAAJAABCAKFhcmVoZWxsb8Cl\n".utf8)

    func testEchoOverAConsoleAnswersInZephyrFramesOnTheLineClock() async throws {
        let (_, endpoint) = endpoint(.console)
        let wire = try await endpoint.open()
        try await wire.send(Self.echoFrame)
        let answer = try await wire.read(count: Self.echoAnswerFrame.count, until: .seconds(1))
        XCTAssertEqual(answer, Self.echoAnswerFrame)
        // 31 bytes out and 31 bytes back at 11520 bytes/s, and the server's 0.5 ms.
        XCTAssertEqual(seconds(wire.now), 62.0 / 11_520 + 0.0005, accuracy: 1e-9)
    }

    func testZephyrCutsLongAnswersAsMcumgrSerialTxPkt() {
        // Golden frames of Zephyr's mcumgr_serial_tx_pkt compiled for the host (DFUBytesTests,
        // SMPConsoleFramingTests): 90- and 200-byte packets of the same pseudo-random bytes.
        let ninety = ZephyrSerialFrameWriter.wireBytes(for: Self.pseudoRandom(90))
        XCTAssertEqual(String(decoding: ninety, as: UTF8.self),
                       "\u{06}\u{09}AFyUE1oDBGSvz2IYQk5puMNTlNHjDk9TH7GLBSgdr4+2TTKYyorBfS6EEZZZO5aFFJVJn1CJ+87jQebQ3Gz1lUSku56ymK91gcaGT74JINCpqwegyNCKfE1l\n"
                        + "\u{04}\u{14}fqL/VA==\n")
        let twoHundred = ZephyrSerialFrameWriter.wireBytes(for: Self.pseudoRandom(200))
        XCTAssertEqual(String(decoding: twoHundred, as: UTF8.self),
                       "\u{06}\u{09}AMqUE1oDBGSvz2IYQk5puMNTlNHjDk9TH7GLBSgdr4+2TTKYyorBfS6EEZZZO5aFFJVJn1CJ+87jQebQ3Gz1lUSku56ymK91gcaGT74JINCpqwegyNCKfE1lfqJP\n"
                        + "\u{04}\u{14}MlGov3WjfLUkvdiXhOemFbOI6X2rrnZ3fObav+ltP5ecnFT2SdQmNeuXkgZPaK/M7hzSeZZKhaDmBbWMHCuoMzg/HEboe/IwuJtMMjgi6Tqz6dTtr5V2dP7c\n"
                        + "\u{04}\u{14}FK8U3WLcMyRjRcAikX5hdDBp2Uyl\n")
    }

    func testLinesThatAreNotFramesAndLongLinesAreDropped() async throws {
        var faults = SimulatedWireFaults()
        faults.garbageToDevice[1] = SimulatedWireFaults.garbageLine
        let (device, endpoint) = endpoint(.console, faults: faults)
        let wire = try await endpoint.open()
        try await wire.send(Self.echoFrame)  // after line noise: still answered
        let answer = try await wire.read(count: Self.echoAnswerFrame.count, until: .seconds(1))
        XCTAssertEqual(answer, Self.echoAnswerFrame)
        // A 129-byte line: over CONFIG_UART_MCUMGR_RX_BUF_SIZE, dropped whole by uart_mcumgr.
        let long = Array(Self.echoFrame.dropLast()) + Array(repeating: UInt8(ascii: "A"), count: 129 - Self.echoFrame.count) + [0x0A]
        XCTAssertEqual(long.count, 129)
        try await wire.send(long)
        let nothing = try await wire.receive(until: wire.now + .seconds(1))
        XCTAssertNil(nothing)
        XCTAssertEqual(device.server.requestCount, 1)
    }

    func testNoiseWithoutANewlineBeforeAFrameLosesThatFrame() async throws {
        var faults = SimulatedWireFaults()
        faults.garbageToDevice[1] = Array("noise".utf8)  // no newline: the frame's line starts with it
        let (device, endpoint) = endpoint(.console, faults: faults)
        let wire = try await endpoint.open()
        try await wire.send(Self.echoFrame)
        let nothing = try await wire.receive(until: .seconds(1))
        XCTAssertNil(nothing, "uart_mcumgr hands the line to mcumgr_serial_process_frag, which wants a marker first")
        try await wire.send(Self.echoFrame)
        let answer = try await wire.read(count: Self.echoAnswerFrame.count, until: .seconds(2))
        XCTAssertEqual(answer, Self.echoAnswerFrame)
        XCTAssertEqual(device.server.requestCount, 1)
    }

    func testALogPrintingConsoleStillCarriesEveryAnswer() async throws {
        var log = ZephyrConsoleLog()
        log.heartbeatInterval = .milliseconds(20)
        let (_, endpoint) = endpoint(.console, consoleLog: log)
        let wire = try await endpoint.open()
        let client = WireSMPClient(wire: wire, framing: SMPConsoleMessageFraming())
        for sequence in 0..<20 {
            let request = SMPTestSupport.frame(group: 0, sequence: UInt8(sequence), command: 0, body: .textMap(["d": .text("x\(sequence)")]))
            let answer = try await client.request(request)
            let body = try WireSMPClient.body(answer)
            XCTAssertEqual(body["r"]?.textValue, "x\(sequence)")
        }
        XCTAssertTrue(client.text.contains { $0.hasSuffix("<inf> app: alive") }, "log lines came between frames: \(client.text)")
        XCTAssertEqual(client.discarded, [])
    }

    func testTheBootBannerComesAfterAResetAndTheUARTStaysOpen() async throws {
        let (device, endpoint) = endpoint(.console, consoleLog: ZephyrConsoleLog())
        let wire = try await endpoint.open()
        let client = WireSMPClient(wire: wire, framing: SMPConsoleMessageFraming())
        let answer = try await client.request(SMPTestSupport.resetRequest)
        XCTAssertEqual(try WireSMPClient.body(answer), .map([]))
        try await wire.send(Array("lost while it reboots\n".utf8))
        _ = try await client.next(timeout: .seconds(3))
        XCTAssertEqual(device.rebootCount, 1)
        XCTAssertEqual(client.text.first, "*** Booting Zephyr OS build v3.7.0 ***")
        XCTAssertEqual(client.text.dropFirst().first, "[00:00:00.010,000] <inf> smp_sample: build time: Jan  1 2026 00:00:00")
        let echo = try await client.request(SMPTestSupport.frame(group: 0, command: 0, body: .textMap(["d": .text("back")])))
        XCTAssertEqual(try WireSMPClient.body(echo)["r"]?.textValue, "back")
    }

    func testEchoOverRawUARTAndUDP() async throws {
        for (transport, link, framing) in [(SMPWireTransport.raw(inputTimeout: nil), SimulatedWireLink.serial(baud: 115_200),
                                            SMPRawMessageFraming() as any MessageFraming),
                                           (.udp(mtu: 1500), .udp(), DatagramFraming())] {
            let (_, endpoint) = endpoint(transport, link: link)
            let client = WireSMPClient(wire: try await endpoint.open(), framing: framing)
            let request = SMPTestSupport.frame(group: 0, sequence: 7, command: 0, body: .textMap(["d": .text("hi")]))
            let answered = try await client.request(request)
            let answer = try XCTUnwrap(answered)
            XCTAssertEqual(Array(answer.prefix(8)), [0x0B, 0x00, 0x00, 0x06, 0x00, 0x00, 0x07, 0x00], "\(transport)")
            XCTAssertEqual(Array(answer[8...]), [0xA1, 0x61, 0x72, 0x62, 0x68, 0x69], "\(transport)")
        }
    }

    func testARawMessageCutShortIsDroppedAtTheInputTimeout() async throws {
        let (device, endpoint) = endpoint(.raw(inputTimeout: .seconds(3)))
        let wire = try await endpoint.open()
        let request = SMPTestSupport.frame(group: 0, command: 0, body: .textMap(["d": .text("hi")]))
        try await wire.send(Array(request.prefix(5)))
        await wire.sleep(until: .seconds(4))
        try await wire.send(request)
        let answer = try await wire.receive(until: .seconds(5))
        XCTAssertEqual(answer.map { Array($0.prefix(4)) }, [0x0B, 0x00, 0x00, 0x06])
        XCTAssertEqual(device.transportDiscards, 1)
    }

    func testUploadAt115200TakesTheLineTimeAndTheNewImageRunsAfterTheReset() async throws {
        let (device, endpoint) = endpoint(.console)
        let wire = try await endpoint.open()
        let client = WireSMPClient(wire: wire, framing: SMPConsoleMessageFraming())
        let image = SMPTestSupport.image(payloadSize: 8 * 1024)
        let offsets = try await client.upload(image.bytes, chunk: 256)
        XCTAssertEqual(offsets.last, image.bytes.count)
        // At least the base64 of the image (4/3 of it) went over the line at 11520 bytes/s.
        XCTAssertGreaterThan(seconds(wire.now), Double(image.bytes.count) * 4 / 3 / 11_520)
        let marked = try await client.request(SMPTestSupport.testState(hash: image.hash, confirm: true))
        XCTAssertEqual(marked?.first, 0x0B)
        _ = try await client.request(SMPTestSupport.resetRequest)
        await wire.sleep(until: wire.now + .seconds(20))
        XCTAssertEqual(device.slots.primary.hash, image.hash)
        let listed = try await client.request(SMPTestSupport.imageStateRead)
        let list = try WireSMPClient.body(listed)
        XCTAssertEqual(list["images"]?.arrayValue?.first?["hash"]?.bytesValue, image.hash)
    }

    func testAResetDropsAUSBPort() async throws {
        let (_, endpoint) = endpoint(.console, link: .serial(baud: 115_200, usb: true))
        let wire = try await endpoint.open()
        let client = WireSMPClient(wire: wire, framing: SMPConsoleMessageFraming())
        _ = try await client.request(SMPTestSupport.resetRequest)
        do {
            _ = try await client.next(timeout: .seconds(1))
            XCTFail("the port went away")
        } catch let error as WireError {
            XCTAssertEqual(error.kind, .closed)
        }
    }

    static func pseudoRandom(_ count: Int, seed: UInt64 = 0x5EED) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state >> 32)
        }
    }
}
