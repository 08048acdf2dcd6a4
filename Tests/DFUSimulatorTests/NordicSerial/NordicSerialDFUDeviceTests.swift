import DFUBytes
import DFUPackage
import DFUSimulator
import DFUWire
import XCTest

/// The Secure DFU bootloader over its serial transport (`NordicSerialDFUDevice`), reached
/// through a simulated wire as nrfutil 6.1.7 reaches a real one (scripts/serial-peers.md).
/// Golden bytes are nrfutil's requests and nrf_dfu_serial.c's answers; CRC32 values are
/// computed from the bytes sent (zlib's CRC-32, as the bootloader's crc32_compute).
final class NordicSerialDFUDeviceTests: XCTestCase {
    private let noDelays = FlashTiming(writePerByte: .zero, pageErase: .zero, hashPerByte: .zero)

    private func connect(_ device: NordicSerialDFUDevice, link: SimulatedWireLink = .serial(baud: 115_200))
        async throws -> NordicSerialClient {
        try await NordicSerialClient(endpoint: SimulatedWireEndpoint(device: device, link: link, name: "sim:nordic-secure-dfu"))
    }

    /// The signed application of firmware-samples/nordic/app-signed.zip (nrfutil 6.1.7,
    /// fw_version 0x010203): init packet 145 bytes, image 24,676 bytes (six 4096-byte data
    /// objects and one of 100).
    private func signedApplication() throws -> (initPacket: [UInt8], firmware: [UInt8]) {
        (try NordicSamples.entry("app.dat", in: "app-signed.zip"), try NordicSamples.entry("app.bin", in: "app-signed.zip"))
    }

    /// The device `sim:nordic-secure-dfu?key=<the samples' test key>` makes for the serial link.
    private func signedDevice(transport: NordicSerialDFUTransport = .uart) throws -> NordicSerialDFUDevice {
        let configuration = try SimulatorConfiguration(parsing: "nordic-secure-dfu?key=" + NordicSamples.publicKeyPath)
        return NordicSerialDFUDevice(configuration: configuration, transport: transport)
    }

    /// Every answer nrfutil reads in `NordicSerialClient.update` from a bootloader as
    /// nrf_dfu_serial.c answers: one per request but Write, and a checksum response
    /// `60 03 01 offset crc` after every `prn`-th Write of an object (the count starts again at
    /// each Create), the offset and CRC being the object type's totals after that write.
    private func expectedAnswers(initPacket: [UInt8], firmware: [UInt8], prn: Int, mtu: Int) -> [[UInt8]] {
        func checksum(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            [0x60, 0x03, 0x01] + SecureDFUClient.le32(bytes.count) + SecureDFUClient.le32(crcOf: Array(bytes))
        }
        let writeSize = (mtu - 1) / 2 - 1
        func receipts(_ stream: [UInt8], from start: Int, to end: Int) -> [[UInt8]] {
            guard prn > 0 else { return [] }
            let writeEnds = stride(from: start, to: end, by: writeSize).map { min($0 + writeSize, end) }
            return writeEnds.enumerated().filter { ($0.offset + 1) % prn == 0 }.map { checksum(stream[..<$0.element]) }
        }
        var answers: [[UInt8]] = [
            [0x60, 0x09, 0x01, 0x01],
            [0x60, 0x02, 0x01],
            [0x60, 0x07, 0x01, UInt8(mtu & 0xFF), UInt8(mtu >> 8)],
            [0x60, 0x06, 0x01] + SecureDFUClient.le32(512) + SecureDFUClient.le32(0) + SecureDFUClient.le32(0),
            [0x60, 0x01, 0x01],
        ]
        answers += receipts(initPacket, from: 0, to: initPacket.count)
        answers += [checksum(initPacket[...]), [0x60, 0x04, 0x01]]
        answers.append([0x60, 0x06, 0x01] + SecureDFUClient.le32(4096) + SecureDFUClient.le32(0) + SecureDFUClient.le32(0))
        for start in stride(from: 0, to: firmware.count, by: 4096) {
            let end = min(start + 4096, firmware.count)
            answers.append([0x60, 0x01, 0x01])
            answers += receipts(firmware, from: start, to: end)
            answers += [checksum(firmware[..<end]), [0x60, 0x04, 0x01]]
        }
        return answers
    }

    // MARK: - Serial-only opcodes

    func testPingMTUAndSelectAnswerWithNrfutilsGoldenBytes() async throws {
        let client = try await connect(NordicSerialDFUDevice(flash: noDelays))
        try await client.sendRaw([0x09, 0x01, 0xC0])
        let ping = try await client.rawBytes(count: 5)
        XCTAssertEqual(ping, [0x60, 0x09, 0x01, 0x01, 0xC0], "ping id 1 echoed")
        try await client.sendRaw([0x02, 0x00, 0x00, 0xC0])
        let setPRN = try await client.rawBytes(count: 4)
        XCTAssertEqual(setPRN, [0x60, 0x02, 0x01, 0xC0])
        try await client.sendRaw([0x07, 0xC0])
        let mtu = try await client.rawBytes(count: 6)
        XCTAssertEqual(mtu, [0x60, 0x07, 0x01, 0x83, 0x00, 0xC0], "UART_SLIP_MTU = 2 * (64 + 1) + 1 = 131")
        try await client.sendRaw([0x06, 0x01, 0xC0])
        let select = try await client.rawBytes(count: 16)
        XCTAssertEqual(select, [0x60, 0x06, 0x01, 0x00, 0x02, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0xC0])
        try await client.sendRaw([0x00, 0xC0])
        let version = try await client.rawBytes(count: 5)
        XCTAssertEqual(version, [0x60, 0x00, 0x01, 0x01, 0xC0], "NRF_DFU_PROTOCOL_VERSION 1")
        // An id that is SLIP's END comes back escaped.
        try await client.sendRaw([0x09, 0xDB, 0xDC, 0xC0])
        let escaped = try await client.rawBytes(count: 6)
        XCTAssertEqual(escaped, [0x60, 0x09, 0x01, 0xDB, 0xDC, 0xC0])
    }

    func testGetMTUAnswersTheTransportsBufferOrTheSetting() async throws {
        let usb = try await connect(NordicSerialDFUDevice(flash: noDelays, transport: .usbCDCACM),
                                    link: .serial(baud: 115_200, usb: true))
        let usbMTU = try await usb.request([0x07])
        XCTAssertEqual(usbMTU, [0x60, 0x07, 0x01, 0x03, 0x08], "SLIP_MTU = 2 * (1024 + 1) + 1 = 2051")
        let custom = try await connect(NordicSerialDFUDevice(flash: noDelays, mtu: 515))
        let customMTU = try await custom.request([0x07])
        XCTAssertEqual(customMTU, [0x60, 0x07, 0x01, 0x03, 0x02])
    }

    // MARK: - A whole update

    func testNrfutilsWholeUpdateWithoutReceiptsOverAUART() async throws {
        let (initPacket, firmware) = try signedApplication()
        let device = try signedDevice()
        let client = try await connect(device)
        let last = try await client.update(initPacket: initPacket, firmware: firmware, prn: 0)
        XCTAssertEqual(last, [0x60, 0x04, 0x01])
        XCTAssertEqual(client.answers, expectedAnswers(initPacket: initPacket, firmware: firmware, prn: 0, mtu: 131),
                       "one answer per request, none to a Write")
        XCTAssertEqual(device.bootloader.installed,
                       [NordicInstalledImage(type: .application, data: firmware, firmwareVersion: 0x010203)])
        // About 25.6 kB of frames at 11,520 bytes/s, and the flash work the last Execute waits for.
        XCTAssertLessThan(client.wire.now, .seconds(3))
        XCTAssertEqual(device.stage(of: TargetFirmware(bytes: firmware)).stage, .pending,
                       "validated; it is activated after the reset")
        // The settings are written and backed up (2 x 96 ms), then the UART is closed: a ping
        // 250 ms after the answer is not heard; the bootloader resets 96 ms later and boots.
        let answeredAt = client.wire.now
        await client.wire.sleep(until: answeredAt + .milliseconds(250))
        let closed = try await client.request([0x09, 0x06])
        XCTAssertNil(closed, "the UART is closed from the end of the settings writes to the reset")
        XCTAssertEqual(device.ignoredByteCount, 3)
        let stray = try await client.answer(within: .seconds(5))
        XCTAssertNil(stray, "nothing follows the last answer")
        XCTAssertEqual(device.bootloader.rebootCount, 1)
        XCTAssertEqual(device.bootloader.activatedCount, 1)
        XCTAssertEqual(device.stage(of: TargetFirmware(bytes: firmware)).stage, .installed)
        // The UART stayed open across the reset: the bootloader answers on the same port.
        let ping = try await client.request([0x09, 0x07])
        XCTAssertEqual(ping, [0x60, 0x09, 0x01, 0x07])
    }

    func testReceiptsComeAfterEveryPRNthWriteOfAnObject() async throws {
        let (initPacket, firmware) = try signedApplication()
        for prn in [4, 3] {
            let device = try signedDevice()
            let client = try await connect(device)
            let last = try await client.update(initPacket: initPacket, firmware: firmware, prn: prn)
            XCTAssertEqual(last, [0x60, 0x04, 0x01], "PRN \(prn)")
            let expected = expectedAnswers(initPacket: initPacket, firmware: firmware, prn: prn, mtu: 131)
            XCTAssertEqual(client.answers, expected, "PRN \(prn)")
            // PRN 4: 16 receipts per 4096-byte object (64 writes), none for the init packet (3
            // writes) or the last object (2). PRN 3: 21 per object (not at write 64: the count
            // restarts at Create), one for the init packet at its third and last write.
            let receipts = expected.count - (5 + 2 + 1 + 7 * 3)
            XCTAssertEqual(receipts, prn == 4 ? 6 * 16 : 1 + 6 * 21, "PRN \(prn)")
            XCTAssertEqual(device.bootloader.installed.map(\.data), [firmware], "PRN \(prn)")
        }
    }

    func testAUSBPortGoesAwayWhileTheBootloaderResetsAndComesBack() async throws {
        let (initPacket, firmware) = try signedApplication()
        let device = try signedDevice(transport: .usbCDCACM)
        let client = try await connect(device, link: .serial(baud: 115_200, usb: true))
        let last = try await client.update(initPacket: initPacket, firmware: firmware, prn: 0)
        XCTAssertEqual(last, [0x60, 0x04, 0x01])
        XCTAssertEqual(client.answers, expectedAnswers(initPacket: initPacket, firmware: firmware, prn: 0, mtu: 2051),
                       "1024-byte writes at MTU 2051")
        // USB's transport close does nothing: the bootloader still answers 250 ms after the last
        // Execute, until it resets after the settings writes and backups (3 x 96 ms, no 200 ms
        // BLE wait); then the port is gone.
        let answeredAt = client.wire.now
        await client.wire.sleep(until: answeredAt + .milliseconds(250))
        let stillThere = try await client.request([0x09, 0x06])
        XCTAssertEqual(stillThere, [0x60, 0x09, 0x01, 0x06])
        do {
            let after = try await client.answer(within: .seconds(1))
            XCTFail("the port should have gone away at the reset, read \(after.map(\.hexString) ?? "nothing")")
        } catch let error as WireError {
            XCTAssertEqual(error.kind, .closed)
        }
        let resetAfter = client.endpoint.now - answeredAt
        XCTAssertGreaterThan(resetAfter, .microseconds(288_024 - 100))
        XCTAssertLessThan(resetAfter, .microseconds(288_024 + 2_000))
        XCTAssertFalse(device.isRunning)
        do {
            try await client.reopen()
            XCTFail("the USB port is not there while the bootloader boots")
        } catch let error as WireError {
            XCTAssertEqual(error.kind, .unavailable)
        }
        await client.endpoint.sleep(until: client.endpoint.now + .seconds(3))
        XCTAssertTrue(device.isRunning)
        try await client.reopen()
        let ping = try await client.request([0x09, 0x02])
        XCTAssertEqual(ping, [0x60, 0x09, 0x01, 0x02])
        XCTAssertEqual(device.stage(of: TargetFirmware(bytes: firmware)).stage, .installed)
    }

    // MARK: - Writes and their errors

    func testAFailedWriteIsReportedOnlyWhenItsReceiptIsDue() async throws {
        let device = NordicSerialDFUDevice(flash: noDelays)
        let client = try await connect(device)
        let select = try await client.request([0x06, 0x02])
        XCTAssertEqual(select?.prefix(3), [0x60, 0x06, 0x01])
        // No init packet: every data write is refused (operation not permitted), unanswered with PRN 0.
        for _ in 0..<3 { try await client.send([0x08, 0xAA, 0xBB]) }
        let silent = try await client.answer()
        XCTAssertNil(silent, "PRN 0: no answer to a Write, not even a failed one")
        let setPRN = try await client.request([0x02, 0x02, 0x00])
        XCTAssertEqual(setPRN, [0x60, 0x02, 0x01])
        try await client.send([0x08, 0xAA])
        let first = try await client.answer()
        XCTAssertNil(first, "the first of two writes is not answered")
        try await client.send([0x08, 0xAA])
        let second = try await client.answer()
        XCTAssertEqual(second, [0x60, 0x03, 0x08], "the second: a checksum response with the write's result, no fields")
    }

    // MARK: - Garbled frames (slip.c)

    func testABadEscapeLosesItsFrameAndEscapeEndLosesTheNextToo() async throws {
        let device = NordicSerialDFUDevice(flash: noDelays)
        let client = try await connect(device)
        // DB 01: the frame is dropped up to its END; the next ping is answered.
        try await client.sendRaw([0x09, 0xDB, 0x01, 0x05, 0xC0, 0x09, 0x02, 0xC0])
        let afterBadEscape = try await client.answer()
        XCTAssertEqual(afterBadEscape, [0x60, 0x09, 0x01, 0x02])
        // DB C0: slip.c takes the END as the bad byte and clears to the next END, so ping 3 is
        // lost with the bad frame; ping 4 is answered.
        try await client.sendRaw([0x09, 0xDB, 0xC0, 0x09, 0x03, 0xC0, 0x09, 0x04, 0xC0])
        let afterEscapeEnd = try await client.answer()
        XCTAssertEqual(afterEscapeEnd, [0x60, 0x09, 0x01, 0x04])
        let more = try await client.answer()
        XCTAssertNil(more)
        XCTAssertEqual(device.discardedFrames.map(\.reason), [.badEscape(byte: 0x01), .badEscape(byte: 0xC0)])
        XCTAssertEqual(device.bootloader.commandLog, [.ping, .ping], "only pings 2 and 4 reached the bootloader")
    }

    func testAFrameThatFillsTheBufferLeavesTheBootloaderDeafUntilItsInactivityReset() async throws {
        let device = NordicSerialDFUDevice(flash: noDelays, bootTime: .milliseconds(500))
        let client = try await connect(device)
        // 130 decoded bytes fit a 131-byte buffer (a Write the bootloader refuses, unanswered).
        try await client.send([0x08] + Array(repeating: 0x55, count: 129))
        let fits = try await client.request([0x09, 0x01])
        XCTAssertEqual(fits, [0x60, 0x09, 0x01, 0x01])
        // 131 fill it: slip.c answers NRF_ERROR_NO_MEM to every later byte, END included.
        try await client.send([0x08] + Array(repeating: 0x55, count: 130))
        let deaf = try await client.request([0x09, 0x02])
        XCTAssertNil(deaf)
        XCTAssertTrue(device.isDecoderStuck)
        XCTAssertEqual(device.discardedFrames.map(\.reason), [.overlong(limit: 130)])
        // NRF_BL_DFU_INACTIVITY_TIMEOUT_MS: 120 s after DFU mode started the bootloader resets.
        await client.wire.sleep(until: .seconds(121))
        XCTAssertEqual(device.bootloader.rebootCount, 1)
        XCTAssertFalse(device.isDecoderStuck)
        let back = try await client.request([0x09, 0x03])
        XCTAssertEqual(back, [0x60, 0x09, 0x01, 0x03])
    }

    // MARK: - Abort and faults

    func testAbortResetsTheBootloaderBeforeItsAnswer() async throws {
        // On a pseudo-terminal too, where bytes take no time: no answer is on its way.
        for link in [SimulatedWireLink.serial(baud: 115_200), .pseudoTerminal()] {
            let device = NordicSerialDFUDevice(flash: noDelays, bootTime: .milliseconds(500))
            let client = try await connect(device, link: link)
            let abort = try await client.request([0x0C])
            XCTAssertNil(abort, "\(link): the abort event resets the bootloader inside the request handler")
            XCTAssertEqual(device.bootloader.rebootCount, 1, "\(link)")
            let ping = try await client.request([0x09, 0x05])
            XCTAssertEqual(ping, [0x60, 0x09, 0x01, 0x05], "\(link): booted again after 500 ms, the port still open")
        }
    }

    func testABusyFaultFailsTheNthRequestAndAFailureHasNoFields() async throws {
        let configuration = try SimulatorConfiguration(parsing: "nordic-secure-dfu?fault=busy:2&fault=busy:3")
        let client = try await connect(NordicSerialDFUDevice(configuration: configuration))
        let ping = try await client.request([0x09, 0x01])
        XCTAssertEqual(ping, [0x60, 0x09, 0x01, 0x01])
        let mtu = try await client.request([0x07])
        XCTAssertEqual(mtu, [0x60, 0x07, 0x0A], "operation failed: no MTU field")
        let abort = try await client.request([0x0C])
        XCTAssertEqual(abort, [0x60, 0x0C, 0x0A], "an abort that failed does not reset, so it is answered")
    }
}
