import DFUBytes
import DFUGATT
import DFUPackage
import DFUSimulator
import XCTest

/// `sim:nordic-legacy-dfu` as an nRF5 SDK 11 bootloader behaves on the clock: the final
/// packet on a receipt boundary, leaving DFU mode (activate, reset, timeout), the bank copy and
/// the application it starts, and command faults.
final class LegacyDFUTimingTests: XCTestCase {
    private let address = DeviceAddress(string: "C0:FF:EE:00:00:01")!
    /// Eight image bytes 01...08: CRC-16/CCITT-FALSE 0x4792; the init packet as in
    /// NordicLegacyDFUDeviceTests (app_version 1).
    private let image: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
    private let initPacket: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0xFE, 0xFF, 0x92, 0x47]
    private let controlPoint = LegacyDFUCharacteristics.controlPoint
    private let packet = LegacyDFUCharacteristics.packet
    private var world: SimulatedWorld!
    private var device: NordicLegacyDFUDevice!
    private var link: SimulatedLink!

    private func make(_ query: String = "") throws {
        world = try SimulatedDeviceCatalog.makeWorld(SimulatorConfiguration(parsing: "nordic-legacy-dfu?mtu=23" + query))
        device = try XCTUnwrap(world.peripherals.first as? NordicLegacyDFUDevice)
        link = try world.connectLink(to: address, timeout: .seconds(1))
    }

    private func control(_ bytes: [UInt8]) async throws -> [UInt8]? {
        try await link.write(bytes, to: controlPoint, type: .withResponse)
        return try await link.nextNotification(until: link.now + .seconds(2))?.value
    }

    private func upload(prn: UInt8, type: UInt8 = 0x04, sizes: [UInt8]? = nil) async throws -> [[UInt8]] {
        _ = try await control([0x01, type])
        try await link.write(sizes ?? [0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0], to: packet, type: .withoutResponse)
        _ = try await link.nextNotification(until: link.now + .seconds(5))
        _ = try await control([0x02, 0x00])
        try await link.write(initPacket, to: packet, type: .withoutResponse)
        _ = try await control([0x02, 0x01])
        _ = try await control([0x08, prn, 0x00])
        _ = try await control([0x03])
        try await link.write(Array(image[0..<4]), to: packet, type: .withoutResponse)
        try await link.write(Array(image[4...]), to: packet, type: .withoutResponse)
        var received: [[UInt8]] = []
        while let notification = try await link.nextNotification(until: link.now + .seconds(1)) {
            received.append(notification.value)
        }
        return received
    }

    func testTheFinalPacketOnAReceiptBoundaryGetsNoReceiptOnlyFirmwareReceived() async throws {
        try make()
        let received = try await upload(prn: 2)
        XCTAssertEqual(received, [[0x10, 0x03, 0x01]], "packet 2 of 2 is a receipt boundary: no 11 there")
    }

    func testFirmwareReceivedWaitsForTheFlashWriteOfTheFinalPacket() async throws {
        /// From sending the image in one packet to `10 03 01`.
        func answerDelay(writeNanosecondsPerByte: Int) async throws -> Duration {
            try make("&write-ns-per-byte=\(writeNanosecondsPerByte)&erase-ms=0&interval=7.5")
            _ = try await control([0x01, 0x04])
            try await link.write([0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0], to: packet, type: .withoutResponse)
            _ = try await link.nextNotification(until: link.now + .seconds(5))
            _ = try await control([0x02, 0x00])
            try await link.write(initPacket, to: packet, type: .withoutResponse)
            _ = try await control([0x02, 0x01])
            _ = try await control([0x03])
            try await link.write(image, to: packet, type: .withoutResponse)
            let sent = link.now
            let answer = try await link.nextNotification(until: link.now + .seconds(1))
            XCTAssertEqual(answer?.value, [0x10, 0x03, 0x01])
            return try XCTUnwrap(answer?.receivedAt) - sent
        }
        let instant = try await answerDelay(writeNanosecondsPerByte: 0)
        let slow = try await answerDelay(writeNanosecondsPerByte: 1_000_000)  // 8 ms for the eight bytes
        XCTAssertEqual(slow - instant, .microseconds(7_500), "one more event: the answer waited for the write")
    }

    func testActivateEndsTheLinkCopiesTheBankAndStartsTheApplication() async throws {
        try make()
        _ = try await upload(prn: 0)
        let validated = try await control([0x04])
        XCTAssertEqual(validated, [0x10, 0x04, 0x01])
        try await link.write([0x05], to: controlPoint, type: .withResponse)
        let arrivedAt = link.now - world.settings.connectionInterval  // one event before its write response
        XCTAssertFalse(link.isConnected, "the write response, then LL terminate")
        XCTAssertEqual(device.mode, .application)
        XCTAssertTrue(device.applicationIsValid)
        XCTAssertFalse(device.isAdvertising(at: link.now), "copying bank 1 to bank 0, then the CRC check")
        let appAddress = DeviceAddress(string: "C0:FF:EE:00:00:00")!
        XCTAssertEqual(device.applicationAddress, appAddress)
        let heard = try await world.waitForAdvertisement(from: appAddress, timeout: .seconds(5))
        XCTAssertEqual(heard?.name, "Nordic_App")
        XCTAssertEqual(heard?.serviceUUIDs, [])
        // One page erased (85 ms), 8 bytes written, the settings saved (a page erase, 64
        // bytes), the 1.1 s boot, then one advertising interval.
        let copy = FlashTiming().writeCost(offset: 0, count: 8)
        let settings = Duration.milliseconds(85) + .nanoseconds(10_750 * 64)
        XCTAssertEqual(world.now - arrivedAt, copy + settings + .milliseconds(1_100) + .milliseconds(100))
        XCTAssertThrowsError(try world.connectLink(to: address, timeout: .seconds(3)), "no DFU mode any more")
        XCTAssertEqual(device.installed.map(\.data), [image])
    }

    func testASoftDeviceUpdateComesBackInDFUModeAfterTheSwap() async throws {
        try make()
        // A SoftDevice of 8 bytes (image type 1): sizes SD 8, BL 0, app 0.
        _ = try await upload(prn: 0, type: 0x01, sizes: [8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        _ = try await control([0x04])
        try await link.write([0x05], to: controlPoint, type: .withResponse)
        let arrivedAt = link.now - world.settings.connectionInterval
        XCTAssertEqual(device.mode, .bootloader)
        XCTAssertFalse(device.applicationIsValid)
        let heard = try await world.waitForAdvertisement(from: address, timeout: .seconds(10))
        XCTAssertEqual(heard?.name, "DfuTarg")
        let settings = Duration.milliseconds(85) + .nanoseconds(10_750 * 64)
        let swap = FlashTiming().writeCost(offset: 0, count: 8)
        XCTAssertEqual(world.now - arrivedAt,
                       settings * 2 + .milliseconds(100) + swap + .milliseconds(1_100) + .milliseconds(100))
        XCTAssertEqual(device.installed.map(\.type), [.softDevice])
    }

    func testActivateWithNothingValidatedResetsIntoDFUModeWithoutInstalling() async throws {
        try make("&boot-ms=300")
        _ = try await upload(prn: 0)
        try await link.write([0x05], to: controlPoint, type: .withResponse)
        let arrivedAt = link.now - world.settings.connectionInterval
        XCTAssertFalse(link.isConnected)
        XCTAssertEqual(device.installed, [])
        XCTAssertEqual(device.bootTime, .milliseconds(300))
        let again = try world.connectLink(to: address, timeout: .seconds(1))
        XCTAssertEqual(world.now - arrivedAt, .milliseconds(300) + world.settings.connectDelay)
        XCTAssertTrue(again.isConnected)
        XCTAssertEqual(device.receivedImageByteCount, 0)
    }

    func testTheDFUTimeoutEndsDFUModeAfter120SecondsWithoutAPacket() async throws {
        try make()
        _ = try await control([0x01, 0x04])
        try await link.write([0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0], to: packet, type: .withoutResponse)
        _ = try await link.nextNotification(until: link.now + .seconds(5))
        let lastPacket = try XCTUnwrap(device.nextTimer) - .seconds(120)
        do {
            _ = try await link.nextNotification(until: link.now + .seconds(300))
            XCTFail("DFU mode ends")
        } catch {
            XCTAssertEqual(error.detail, "the bootloader's DFU timeout ended DFU mode (120 s without a packet)")
        }
        XCTAssertEqual(link.now, lastPacket + .seconds(120))
        XCTAssertEqual(device.rebootCount, 1)
    }

    func testCommandFaultsOnThePacketAndControlPoint() async throws {
        try make("&fault=disconnect-on:image_sizes&fault=disconnect-after-command:validate")
        _ = try await control([0x01, 0x04])
        do {
            try await link.write([0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0], to: packet, type: .withoutResponse)
            _ = try await link.nextNotification(until: link.now + .seconds(5))
            XCTFail("disconnect-on:image_sizes")
        } catch {
            XCTAssertEqual(error.detail, "simulated fault: disconnect on image_sizes #1, before the device processed it")
        }
        link = try world.connectLink(to: address, timeout: .seconds(1))
        let received = try await upload(prn: 0)
        XCTAssertEqual(received.last, [0x10, 0x03, 0x01], "the sizes came the second time")
        do {
            _ = try await control([0x04])
            XCTFail("disconnect-after-command:validate")
        } catch {
            XCTAssertEqual((error as? GATTError)?.detail,
                           "simulated fault: disconnect after validate #1 was processed, before its answer")
        }
        link = try world.connectLink(to: address, timeout: .seconds(1))
        try await link.write([0x05], to: controlPoint, type: .withResponse)
        XCTAssertEqual(device.installed.map(\.data), [image], "validate had been done: activate installs")
    }
}
