import DFUBytes
import DFUGATT
import DFUPackage
import DFUSimulator
import XCTest

/// The simulated legacy (SDK <= 11) DFU bootloader at the byte level: responses `10 <op>
/// <status>`, receipts `11 <bytes u32>`, all little-endian.
final class NordicLegacyDFUDeviceTests: XCTestCase {
    private let address = DeviceAddress(string: "C0:FF:EE:00:00:01")!
    /// Eight image bytes 01...08: CRC-16/CCITT-FALSE 0x4792.
    private let image: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
    /// device_type FFFF, device_rev FFFF, app_version 1, one sd_req FFFE, CRC16 0x4792.
    private let initPacket: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0xFE, 0xFF, 0x92, 0x47]
    private let applicationSizes: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0]

    private var device: NordicLegacyDFUDevice!
    private var world: SimulatedWorld!
    private var link: SimulatedLink!

    private let controlPoint = LegacyDFUCharacteristics.controlPoint
    private let packet = LegacyDFUCharacteristics.packet

    private func makeDevice(mtu: Int = 23, failing: Set<Int> = []) throws {
        device = NordicLegacyDFUDevice(address: address, flash: FlashTiming(writePerByte: .zero, pageErase: .zero, hashPerByte: .zero),
                                       failingCommands: failing)
        world = SimulatedWorld(name: "sim:nordic-legacy-dfu", settings: LinkSettings(mtu: mtu), peripherals: [device])
        link = try world.connectLink(to: address, timeout: .seconds(1))
    }

    private func control(_ bytes: [UInt8]) async throws -> [UInt8]? {
        try await link.write(bytes, to: controlPoint, type: .withResponse)
        return try await nextNotification()
    }

    private func nextNotification(within timeout: Duration = .seconds(2)) async throws -> [UInt8]? {
        try await link.nextNotification(until: link.now + timeout)?.value
    }

    private func send(_ bytes: [UInt8]) async throws {
        var start = 0
        while start < bytes.count {
            let end = min(start + link.mtu - 3, bytes.count)
            try await link.write(Array(bytes[start..<end]), to: packet, type: .withoutResponse)
            start = end
        }
    }

    private func startAndSendInitPacket(_ packetBytes: [UInt8]? = nil) async throws {
        let value1 = try await control([0x01, 0x04])
        XCTAssertNil(value1)
        try await send(applicationSizes)
        let value2 = try await nextNotification()
        XCTAssertEqual(value2, [0x10, 0x01, 0x01])
        let value3 = try await control([0x02, 0x00])
        XCTAssertNil(value3)
        try await send(packetBytes ?? initPacket)
        let value4 = try await control([0x02, 0x01])
        XCTAssertEqual(value4, [0x10, 0x02, 0x01])
    }

    func testServicesAndVersion() async throws {
        try makeDevice()
        let services = try await link.discoverServices()
        XCTAssertEqual(services.first?.uuid.uuidString, "00001530-1212-EFDE-1523-785FEABCD123")
        XCTAssertEqual(services.first?.characteristics.map(\.uuid.uuidString), [
            "00001532-1212-EFDE-1523-785FEABCD123", "00001531-1212-EFDE-1523-785FEABCD123",
            "00001534-1212-EFDE-1523-785FEABCD123",
        ])
        let version = try XCTUnwrap(services.first?.characteristics.last)
        let value5 = try await link.read(version)
        XCTAssertEqual(value5, [0x08, 0x00])
        XCTAssertEqual(device.advertisement.name, "DfuTarg")
    }

    func testWholeFlowAtTheByteLevel() async throws {
        try makeDevice()
        let value6 = try await control([0x01, 0x04])
        XCTAssertNil(value6, "start: the sizes come on the packet characteristic")
        try await send(applicationSizes)
        let value7 = try await nextNotification()
        XCTAssertEqual(value7, [0x10, 0x01, 0x01])
        let value8 = try await control([0x02, 0x00])
        XCTAssertNil(value8)
        try await send(initPacket)
        let value9 = try await control([0x02, 0x01])
        XCTAssertEqual(value9, [0x10, 0x02, 0x01])
        let value10 = try await control([0x08, 0x01, 0x00])
        XCTAssertNil(value10, "PRN every packet; no answer")
        let value11 = try await control([0x03])
        XCTAssertNil(value11)
        try await send(Array(image[0..<4]))
        let value12 = try await nextNotification()
        XCTAssertEqual(value12, [0x11, 0x04, 0x00, 0x00, 0x00])
        try await send(Array(image[4...]))
        let value13 = try await nextNotification()
        XCTAssertEqual(value13, [0x10, 0x03, 0x01], "the last packet: receive complete, no receipt")
        let value14 = try await control([0x07])
        XCTAssertEqual(value14, [0x10, 0x07, 0x01, 0x08, 0x00, 0x00, 0x00])
        let value15 = try await control([0x04])
        XCTAssertEqual(value15, [0x10, 0x04, 0x01])
        try await link.write([0x05], to: controlPoint, type: .withResponse)
        XCTAssertFalse(link.isConnected, "activate and reset: the write is acknowledged, the link ends without an answer")
        XCTAssertEqual(device.installed, [NordicInstalledImage(type: .application, data: image, firmwareVersion: 1)])
        XCTAssertEqual(device.rebootCount, 1)
        XCTAssertEqual(device.commandLog, [.startDFU, .initializeParameters, .initializeParameters,
                                           .packetReceiptNotificationRequest, .receiveFirmwareImage,
                                           .reportReceivedImageSize, .validateFirmware, .activateAndReset])
    }

    func testRealLegacyPackage() async throws {
        try makeDevice()
        let dat = try NordicSamples.entry("legacy-app.dat", in: "legacy-app.zip")
        let bin = try NordicSamples.entry("legacy-app.bin", in: "legacy-app.zip")
        XCTAssertEqual(bin.count, 20_524)
        let value17 = try await control([0x01, 0x04])
        XCTAssertNil(value17)
        try await send([0, 0, 0, 0, 0, 0, 0, 0] + SecureDFUClient.le32(bin.count))
        let value18 = try await nextNotification()
        XCTAssertEqual(value18, [0x10, 0x01, 0x01])
        let value19 = try await control([0x02, 0x00])
        XCTAssertNil(value19)
        try await send(dat)
        let value20 = try await control([0x02, 0x01])
        XCTAssertEqual(value20, [0x10, 0x02, 0x01])
        let value21 = try await control([0x08, 0x0A, 0x00])
        XCTAssertNil(value21)
        let value22 = try await control([0x03])
        XCTAssertNil(value22)
        try await send(bin)
        var receipts: [[UInt8]] = []
        while let notification = try await nextNotification(), notification.first == 0x11 { receipts.append(notification) }
        XCTAssertEqual(receipts.count, 102, "20524 bytes in 1027 packets: a receipt every 10, none for the last")
        XCTAssertEqual(receipts.first, [0x11, 0xC8, 0x00, 0x00, 0x00])
        let value23 = try await control([0x04])
        XCTAssertEqual(value23, [0x10, 0x04, 0x01])
        try await link.write([0x05], to: controlPoint, type: .withResponse)
        XCTAssertTrue(device.installed.map(\.data) == [bin])
    }

    func testErrors() async throws {
        try makeDevice()
        let value24 = try await control([0x09])
        XCTAssertEqual(value24, [0x10, 0x09, 0x03], "unknown opcode: not supported")
        let value25 = try await control([0x04])
        XCTAssertEqual(value25, [0x10, 0x04, 0x02], "validate before anything: invalid state")
        let value26 = try await control([0x02, 0x01])
        XCTAssertEqual(value26, [0x10, 0x02, 0x02], "init complete before start")
        let value27 = try await control([0x01, 0x04])
        XCTAssertNil(value27)
        try await send([0, 0, 0, 0, 8, 0, 0, 0])
        let value28 = try await nextNotification()
        XCTAssertEqual(value28, [0x10, 0x01, 0x03], "8 bytes instead of 12")
        try await send([0, 0, 0, 0, 4, 0, 0, 0, 8, 0, 0, 0])
        let value29 = try await nextNotification()
        XCTAssertEqual(value29, [0x10, 0x01, 0x03], "an application with a bootloader size")
        try await send([0, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0])
        let value30 = try await nextNotification()
        XCTAssertEqual(value30, [0x10, 0x01, 0x03], "not whole words")
        try await send([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0])
        let value31 = try await nextNotification()
        XCTAssertEqual(value31, [0x10, 0x01, 0x04], "1 MiB does not fit")
        try await send(applicationSizes)
        let value32 = try await nextNotification()
        XCTAssertEqual(value32, [0x10, 0x01, 0x01])
        try await send(applicationSizes)
        let value33 = try await nextNotification()
        XCTAssertEqual(value33, [0x10, 0x01, 0x02], "a second start packet")
        let value34 = try await control([0x03])
        XCTAssertNil(value34)
        try await send(Array(image[0..<4]))
        let value35 = try await nextNotification()
        XCTAssertEqual(value35, [0x10, 0x03, 0x02], "data before the init packet")
        let value36 = try await control([0x02, 0x00])
        XCTAssertNil(value36)
        try await send([UInt8](repeating: 0xFF, count: 20) + [UInt8](repeating: 0xFF, count: 20))
        try await send([UInt8](repeating: 0xFF, count: 20) + [UInt8](repeating: 0xFF, count: 8))
        let value37 = try await nextNotification()
        XCTAssertEqual(value37, [0x10, 0x02, 0x04], "more than 64 init packet bytes")
    }

    func testImageErrorsAndCRCMismatch() async throws {
        try makeDevice()
        var wrongCRC = initPacket
        wrongCRC[12] ^= 0xFF
        try await startAndSendInitPacket(wrongCRC)
        let value38 = try await control([0x03])
        XCTAssertNil(value38)
        try await send([1, 2, 3])
        let value39 = try await nextNotification()
        XCTAssertEqual(value39, [0x10, 0x03, 0x03], "3 bytes: not a whole word")
        try await send(image)
        let value40 = try await nextNotification()
        XCTAssertEqual(value40, [0x10, 0x03, 0x01])
        try await send([9, 9, 9, 9])
        let value41 = try await nextNotification()
        XCTAssertEqual(value41, [0x10, 0x03, 0x04], "past the announced size")
        let value42 = try await control([0x04])
        XCTAssertEqual(value42, [0x10, 0x04, 0x05], "CRC error")
        try await link.write([0x05], to: controlPoint, type: .withResponse)
        XCTAssertFalse(link.isConnected, "activate without a valid image just resets")
        XCTAssertEqual(device.installed, [])
    }

    func testAShortInitPacketFailsTheInitProcedure() async throws {
        try makeDevice()
        let value43 = try await control([0x01, 0x04])
        XCTAssertNil(value43)
        try await send(applicationSizes)
        let value44 = try await nextNotification()
        XCTAssertEqual(value44, [0x10, 0x01, 0x01])
        let value45 = try await control([0x02, 0x00])
        XCTAssertNil(value45)
        try await send([0x52, 0x00, 0xFF, 0xFF])
        let value46 = try await control([0x02, 0x01])
        XCTAssertEqual(value46, [0x10, 0x02, 0x06])
    }

    func testStateSurvivesADisconnectAndANewStartIsRefusedUntilReset() async throws {
        // SDK 11: a disconnect only restarts advertising; m_dfu_state and the bytes stay.
        try makeDevice()
        try await startAndSendInitPacket()
        let value47 = try await control([0x03])
        XCTAssertNil(value47)
        try await send(Array(image[0..<4]))
        let size = try await control([0x07])
        XCTAssertEqual(size, [0x10, 0x07, 0x01, 0x04, 0x00, 0x00, 0x00])
        await link.disconnect()
        XCTAssertEqual(device.receivedImageByteCount, 4)
        link = try world.connectLink(to: address, timeout: .seconds(1))
        let again = try await control([0x01, 0x04])
        XCTAssertNil(again)
        try await send(applicationSizes)
        let refused = try await nextNotification()
        XCTAssertEqual(refused, [0x10, 0x01, 0x02], "Start outside DFU_STATE_IDLE: invalid state")
        // The rest of the image still fits where it stopped.
        let value48 = try await control([0x03])
        XCTAssertNil(value48)
        try await send(Array(image[4...]))
        let value49 = try await nextNotification()
        XCTAssertEqual(value49, [0x10, 0x03, 0x01])
        // 06: the link ends, nothing is installed, and DFU mode starts over after the boot.
        try await link.write([0x06], to: controlPoint, type: .withResponse)
        XCTAssertFalse(link.isConnected, "reset")
        XCTAssertEqual(device.installed, [])
        link = try world.connectLink(to: address, timeout: .seconds(5))
        XCTAssertEqual(device.receivedImageByteCount, 0)
        try await startAndSendInitPacket()
    }

    func testBusyFaultAnswersOperationFailed() async throws {
        try makeDevice(failing: [1])
        let value53 = try await control([0x01, 0x04])
        XCTAssertEqual(value53, [0x10, 0x01, 0x06])
    }

    func testStartAnswerWaitsForTheErase() async throws {
        device = NordicLegacyDFUDevice(address: address, flash: FlashTiming(writePerByte: .zero, pageErase: .milliseconds(85)))
        world = SimulatedWorld(name: "sim:nordic-legacy-dfu", settings: LinkSettings(mtu: 23), peripherals: [device])
        link = try world.connectLink(to: address, timeout: .seconds(1))
        let value54 = try await control([0x01, 0x04])
        XCTAssertNil(value54)
        let sent = link.now
        try await send([0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x20, 0, 0])  // 8 KiB: two pages
        let answer = try await link.nextNotification(until: link.now + .seconds(2))
        XCTAssertEqual(answer?.value, [0x10, 0x01, 0x01])
        let received = try XCTUnwrap(answer?.receivedAt)
        XCTAssertGreaterThanOrEqual(received, sent + .milliseconds(170))
        XCTAssertLessThanOrEqual(received, sent + .milliseconds(200))
    }
}
