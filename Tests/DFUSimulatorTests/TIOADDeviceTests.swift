import DFUBytes
import DFUGATT
import DFUPackage
import DFUSimulator
import XCTest

/// `sim:ti-oad` at the ATT level, as oad.c answers: identify statuses, block requests
/// `12 <status> <u32>`, control answers, the inactivity reset, notifications only once enabled.
final class TIOADDeviceTests: XCTestCase {
    private let address = DeviceAddress(string: "C0:FF:EE:00:00:01")!
    private var device: TIOADDevice!
    private var link: SimulatedLink!

    private func characteristic(_ uuid: BluetoothUUID, _ handle: UInt16, _ properties: GATTProperties) -> GATTCharacteristic {
        GATTCharacteristic(service: TIOADDevice.serviceUUID, uuid: uuid, valueHandle: handle, properties: properties)
    }
    private var identify: GATTCharacteristic { characteristic(TIOADDevice.identifyUUID, 3, [.write, .writeWithoutResponse, .notify]) }
    private var block: GATTCharacteristic { characteristic(TIOADDevice.blockUUID, 7, [.write, .writeWithoutResponse, .notify]) }
    private var control: GATTCharacteristic { characteristic(TIOADDevice.controlUUID, 11, [.writeWithoutResponse, .notify]) }

    private func connect(mtu: Int = 247, timing: TIOADDevice.Timing = TIOADDevice.Timing(), subscribe: Bool = true) async throws {
        device = TIOADDevice(address: address, flash: FlashTiming(writePerByte: .zero, pageErase: .zero, hashPerByte: .zero),
                             timing: timing)
        let world = SimulatedWorld(name: "sim:ti-oad", settings: LinkSettings(mtu: mtu), peripherals: [device])
        link = try world.connectLink(to: address, timeout: .seconds(1))
        let services = try await link.discoverServices()
        XCTAssertEqual(services.first?.characteristics.map(\.valueHandle), [3, 7, 11])
        if subscribe {
            for characteristic in [identify, control] {
                try await link.setNotifications(enabled: true, for: characteristic, preferring: .notifications)
            }
        }
    }

    private func next(within timeout: Duration = .seconds(1)) async throws -> [UInt8]? {
        try await link.nextNotification(until: link.now + timeout)?.value
    }

    private func command(_ bytes: [UInt8]) async throws -> [UInt8]? {
        try await link.write(bytes, to: control, type: .withoutResponse)
        return try await next()
    }

    private func image(length: Int, imageID: String = "CC26x2R1") -> [UInt8] {
        var header = TIOADImageHeader(imageID: imageID, softwareVersion: "0002", length: UInt32(length))
        var writer = ByteWriter()
        writer.append(bytes: header.encoded)
        writer.append(bytes: [0x01, 0xFE, 0xFF, 0xFF])
        writer.append(UInt32(length - 44), endianness: .little)
        writer.append(UInt32(0), endianness: .little)
        var bytes = writer.bytes + (0..<(length - 56)).map { UInt8(truncatingIfNeeded: $0 * 7) }
        header.crc32 = TIOADImageHeader.crc(of: bytes, length: length) ?? 0
        bytes.replaceSubrange(0..<44, with: header.encoded)
        return bytes
    }

    private func sendIdentify(_ image: [UInt8]) async throws -> [UInt8]? {
        try await link.write(try TIOADImageHeader(decoding: image).identifyPayload, to: identify, type: .withResponse)
        return try await next()
    }

    private func sendBlock(_ number: Int, of image: [UInt8], blockSize: Int) async throws -> [UInt8]? {
        let perBlock = blockSize - 4
        let data = Array(image[(number * perBlock)..<min(image.count, (number + 1) * perBlock)])
        var writer = ByteWriter()
        writer.append(UInt32(number), endianness: .little)
        try await link.write(writer.bytes + data, to: block, type: .withoutResponse)
        return try await next()
    }

    func testTheBlockSizeFollowsTheMTUAsOADSetBlockSizeComputesIt() async throws {
        for (mtu, size) in [(23, 20), (25, 20), (64, 60), (100, 96), (185, 180), (247, 244), (517, 244)] {
            try await connect(mtu: mtu)
            let answer = try await command([0x01])
            XCTAssertEqual(answer, [0x01, UInt8(size), 0x00], "MTU \(mtu)")
        }
    }

    func testAWholeDownloadIsRequestedBlockByBlockThenCompleteAndEnabled() async throws {
        try await connect(mtu: 64)
        let image = image(length: 130)  // 56-byte blocks: 0, 1, 2 (18 bytes)
        let accepted = try await sendIdentify(image)
        XCTAssertEqual(accepted, [0x00])
        let imageCount = try await command([0x02])
        XCTAssertEqual(imageCount, [0x02, 0x00], "IMG_CNT in CONFIG")
        let first = try await command([0x03])
        XCTAssertEqual(first, [0x12, 0x00, 0, 0, 0, 0], "START_OAD is answered by the first block request")
        let second = try await sendBlock(0, of: image, blockSize: 60)
        XCTAssertEqual(second, [0x12, 0x00, 1, 0, 0, 0])
        let third = try await sendBlock(1, of: image, blockSize: 60)
        XCTAssertEqual(third, [0x12, 0x00, 2, 0, 0, 0])
        let complete = try await sendBlock(2, of: image, blockSize: 60)
        XCTAssertEqual(complete, [0x12, 0x0E, 0, 0, 0, 0], "DL_COMPLETE once the CRC matched")
        let enabled = try await command([0x04])
        XCTAssertEqual(enabled, [0x04, 0x00])
        // The reset comes without LL terminate; the BIM then starts the new image.
        do {
            _ = try await link.nextNotification(until: link.now + .seconds(1))
            XCTFail("the link must drop at the reset")
        } catch {}
        XCTAssertTrue(device.running == image)
    }

    func testBlocksOtherThanTheOneAskedForCancelTheOAD() async throws {
        try await connect(mtu: 64)
        let image = image(length: 200)
        _ = try await sendIdentify(image)
        _ = try await command([0x03])
        _ = try await sendBlock(0, of: image, blockSize: 60)
        let again = try await sendBlock(0, of: image, blockSize: 60)
        XCTAssertEqual(again, [0x12, 0x03, 0, 0, 0, 0], "BUFFER_OFL, block 0")
        XCTAssertTrue(device.isOADIdle)
        // A block in IDLE: NOT_STARTED.
        let idle = try await sendBlock(1, of: image, blockSize: 60)
        XCTAssertEqual(idle, [0x12, 0x05, 0, 0, 0, 0])
        // A block of the wrong size.
        _ = try await sendIdentify(image)
        _ = try await command([0x03])
        try await link.write([0, 0, 0, 0, 1, 2, 3], to: block, type: .withoutResponse)
        let short = try await next()
        XCTAssertEqual(short, [0x12, 0x03, 0, 0, 0, 0])
    }

    func testThirdRefusedIdentifyEndsTheLink() async throws {
        try await connect()
        let other = image(length: 100, imageID: "CC13x2R1")
        let first = try await sendIdentify(other)
        XCTAssertEqual(first, [0x0A], "INVALID_FILE")
        let second = try await sendIdentify(other)
        XCTAssertEqual(second, [0x0A])
        let third = try await sendIdentify(other)
        XCTAssertEqual(third, [0x10], "IMG_ID_TIMEOUT")
        do {
            _ = try await link.nextNotification(until: link.now + .seconds(1))
            XCTFail("the application ends the link")
        } catch {}
    }

    func testTheInactivityTimeoutForgetsTheOADSilently() async throws {
        try await connect(mtu: 64, timing: TIOADDevice.Timing(inactivity: .seconds(5)))
        let image = image(length: 130)
        _ = try await sendIdentify(image)
        _ = try await command([0x03])
        _ = try await sendBlock(0, of: image, blockSize: 60)
        try await link.sleep(until: link.now + .milliseconds(4900))
        let inTime = try await sendBlock(1, of: image, blockSize: 60)
        XCTAssertEqual(inTime, [0x12, 0x00, 2, 0, 0, 0], "each block restarts the clock")
        let quiet = try await next(within: .seconds(6))
        XCTAssertNil(quiet, "nothing is notified at the timeout")
        XCTAssertTrue(device.isOADIdle)
        let late = try await sendBlock(2, of: image, blockSize: 60)
        XCTAssertEqual(late, [0x12, 0x05, 0, 0, 0, 0])
        let enable = try await command([0x04])
        XCTAssertEqual(enable, [0x04, 0x06], "DL_NOT_COMPLETE")
    }

    func testControlAnswersAndUnknownOpcodes() async throws {
        try await connect()
        let version = try await command([0x07])
        XCTAssertEqual(version, [0x07] + Array("0001".utf8))
        let profile = try await command([0x09])
        XCTAssertEqual(profile, [0x09, 0x01])
        let start = try await command([0x03])
        XCTAssertEqual(start, [0x03, 0x05], "START_OAD before identify")
        let cancel = try await command([0x05])
        XCTAssertEqual(cancel, [0x05, 0x05], "nothing to cancel")
        let unknown = try await command([0x42])
        XCTAssertEqual(unknown, [0xFF])
        let deviceType = try await command([0x10])
        XCTAssertEqual(deviceType?.count, 5)
    }

    func testNothingIsNotifiedBeforeTheCCCDIsWritten() async throws {
        try await connect(subscribe: false)
        let image = image(length: 100)
        try await link.write(try TIOADImageHeader(decoding: image).identifyPayload, to: identify, type: .withResponse)
        let silent = try await next()
        XCTAssertNil(silent, "oadSendNotification: CCCD_NOT_ENABLED")
    }

    func testALostLinkCancelsTheOAD() async throws {
        try await connect(mtu: 64)
        let image = image(length: 200)
        _ = try await sendIdentify(image)
        _ = try await command([0x03])
        _ = try await sendBlock(0, of: image, blockSize: 60)
        await link.disconnect()
        XCTAssertTrue(device.isOADIdle)
        XCTAssertEqual(device.blockSize, 20, "no link: OAD_DEFAULT_BLOCK_SIZE")
    }
}

extension TIOADDeviceTests {
    /// `busy:N`: the N-th block write fails in flash: the device names that block again, with
    /// FLASH_ERR, and resets the OAD.
    func testAFailedFlashWriteNamesTheBlockWithFlashErrorAndResets() async throws {
        let world = try SimulatedDeviceCatalog.makeWorld(SimulatorConfiguration(parsing: "ti-oad?mtu=64&fault=busy:2"))
        let device = try XCTUnwrap(world.peripherals.first as? TIOADDevice)
        let link = try world.connectLink(to: DeviceAddress(string: "C0:FF:EE:00:00:01")!, timeout: .seconds(1))
        let services = try await link.discoverServices()
        let characteristics = try XCTUnwrap(services.first?.characteristics)
        for characteristic in characteristics where characteristic.valueHandle != 7 {
            try await link.setNotifications(enabled: true, for: characteristic, preferring: .notifications)
        }
        let image = TIOADImageBuilder.image(code: Array(repeating: 0x5A, count: 200))
        try await link.write(try TIOADImageHeader(decoding: image).identifyPayload, to: characteristics[0], type: .withResponse)
        _ = try await link.nextNotification(until: link.now + .seconds(1))
        try await link.write([0x03], to: characteristics[2], type: .withoutResponse)
        _ = try await link.nextNotification(until: link.now + .seconds(1))
        try await link.write([0, 0, 0, 0] + Array(image[0..<56]), to: characteristics[1], type: .withoutResponse)
        let next = try await link.nextNotification(until: link.now + .seconds(1))?.value
        XCTAssertEqual(next, [0x12, 0x00, 1, 0, 0, 0])
        try await link.write([1, 0, 0, 0] + Array(image[56..<112]), to: characteristics[1], type: .withoutResponse)
        let failed = try await link.nextNotification(until: link.now + .seconds(1))?.value
        XCTAssertEqual(failed, [0x12, 0x02, 1, 0, 0, 0], "FLASH_ERR, naming block 1 again")
        XCTAssertTrue(device.isOADIdle)
    }
}
