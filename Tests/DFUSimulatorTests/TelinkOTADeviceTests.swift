import DFUBytes
import DFUGATT
@testable import DFUSimulator
import XCTest

/// The simulated Telink OTA server at the ATT level: packets written without response, nothing
/// answered, the link ended by the device when the OTA ends, the revision read back after the
/// reboot. Golden bytes were computed by an independent bitwise CRC-16 (reflected 0xA001, init
/// 0xFFFF) in Python.
final class TelinkOTADeviceTests: XCTestCase {
    private let address = DeviceAddress(string: "C0:FF:EE:00:00:01")!
    private let ota = GATTCharacteristic(service: TelinkOTADevice.serviceUUID, uuid: TelinkOTADevice.otaUUID,
                                         valueHandle: TelinkOTADevice.otaHandle, properties: [.read, .writeWithoutResponse, .notify])
    private let revision = GATTCharacteristic(service: TelinkOTADevice.deviceInformationUUID, uuid: TelinkOTADevice.firmwareRevisionUUID,
                                              valueHandle: TelinkOTADevice.firmwareRevisionHandle, properties: [.read])
    private var device: TelinkOTADevice!
    private var world: SimulatedWorld!
    private var link: SimulatedLink!

    /// A valid image of `body` bytes (a multiple of 16) and its CRC-32 trailer, reporting `version`.
    static func image(body: Int, version: String = "2.0.0") -> [UInt8] {
        var bytes = (0..<body).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        bytes.replaceSubrange(8..<12, with: Array("KNLT".utf8))
        let size = body + 4
        bytes.replaceSubrange(0x18..<0x1C, with: (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) })
        let tag = Array("FWREV=\(version)".utf8) + [0]
        bytes.replaceSubrange(0x20..<0x20 + tag.count, with: tag)
        let crc = ~CRC32.checksum(bytes)
        return bytes + (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) }
    }

    static func packets(_ image: [UInt8]) -> [[UInt8]] {
        stride(from: 0, to: image.count, by: 16).map { offset in
            TelinkOTADataPacket(index: UInt16(offset / 16), data: Array(image[offset..<min(offset + 16, image.count)])).bytes
        }
    }

    private func makeDevice(_ settings: TelinkOTAServerSettings = TelinkOTADeviceTests.smallImages) throws {
        device = TelinkOTADevice(address: address, settings: settings,
                                 flash: FlashTiming(writePerByte: .zero, pageErase: .milliseconds(50)))
        world = SimulatedWorld(name: "sim:telink-ota", settings: LinkSettings(mtu: 23), peripherals: [device])
        link = try world.connectLink(to: address, timeout: .seconds(1))
    }

    static var smallImages: TelinkOTAServerSettings {
        var settings = TelinkOTAServerSettings()
        settings.minimumImageSize = 0x40
        return settings
    }

    /// Writes without response, then lets the connection events deliver them.
    private func write(_ values: [[UInt8]]) async throws {
        for value in values { try await link.write(value, to: ota, type: .withoutResponse) }
        try await link.sleep(until: link.now + .milliseconds(100))
    }

    private func command(_ code: UInt16) -> [UInt8] {
        [UInt8(code & 0xFF), UInt8(code >> 8)] + [UInt8](repeating: 0xFF, count: 16)
    }

    /// Waits (on the simulated clock) for the device to end the link; returns why it ended.
    private func linkEnd(within timeout: Duration = .seconds(2)) async -> String? {
        do {
            _ = try await link.nextNotification(until: link.now + timeout)
            _ = try await link.nextNotification(until: link.now + timeout)
            return nil
        } catch {
            return error.detail
        }
    }

    private func reconnect(after time: Duration = .seconds(15)) async throws {
        world.advanceClock(to: world.now + time)
        link = try world.connectLink(to: address, timeout: .seconds(5))
    }

    private func readRevision() async throws -> String {
        String(decoding: try await link.read(revision), as: UTF8.self)
    }

    // MARK: - Wire messages

    func testGoldenBytesOfPacketsAndTheEndCommand() {
        XCTAssertEqual(TelinkOTADataPacket(index: 0, data: Array(0..<16)).bytes.hexString,
                       "0000000102030405060708090a0b0c0d0e0f7bf3")
        XCTAssertEqual(TelinkOTADataPacket(index: 0x400, data: [0x67, 0x60, 0xC0, 0xB9]).bytes.hexString,
                       "00046760c0b9ffffffffffffffffffffffff0fae", "a last packet padded with 0xFF, the padding in the CRC")
        XCTAssertEqual(TelinkOTAEndCommand(lastIndex: 0x05A9).bytes.hexString, "02ffa90556fa",
                       "the handbook's 5316_remote.bin: 0x5A98 bytes, last index 0x05A9")
        let parsed = TelinkOTADataPacket(bytes: Array(hex: "00046760c0b9ffffffffffffffffffffffff0fae")!)
        XCTAssertEqual(parsed?.index, 0x400)
        XCTAssertEqual(parsed?.crcMatches, true)
        XCTAssertNil(TelinkOTADataPacket(bytes: Array(hex: "00ffffffffffffffffffffffffffffffffff4054")!), "a command, not data")
        XCTAssertNil(TelinkOTADataPacket(bytes: Array(repeating: 0, count: 19)), "19 bytes")
        XCTAssertEqual(TelinkOTAEndCommand(bytes: Array(hex: "02ff0004fffbffffffffffffffffffffffff559b")!)?.lastIndex, 0x400)
        XCTAssertEqual(TelinkOTAEndCommand(bytes: [0x02, 0xFF, 0x04, 0x00, 0x00, 0x00])?.isConsistent, false)
        XCTAssertEqual(TelinkOTAResultNotification(result: .dataCRCError).bytes, [0x06, 0xFF, 0x03, 0x00])
        XCTAssertEqual(TelinkOTAResult(rawValue: 0x42).description, "result 66 (66)")
    }

    // MARK: - An OTA

    func testWholeOTAReachesTheNewImageAfterTheReboot() async throws {
        try makeDevice()
        let before = try await readRevision()
        XCTAssertEqual(before, "1.0.0")
        let image = Self.image(body: 0x100)
        try await write([command(0xFF00), command(0xFF01)] + Self.packets(image))
        XCTAssertTrue(device.isReceiving)
        try await write([TelinkOTAEndCommand(lastIndex: UInt16(Self.packets(image).count - 1)).bytes])
        let end = await linkEnd()
        XCTAssertTrue(end?.contains("OTA_SUCCESS") == true, String(describing: end))
        XCTAssertEqual(device.results, [.success])
        XCTAssertEqual(device.pendingImage, image)
        XCTAssertFalse(device.isAdvertising(at: world.now), "rebooting")
        try await reconnect()
        let after = try await readRevision()
        XCTAssertEqual(after, "2.0.0")
        XCTAssertEqual(device.running.image, image)
        XCTAssertEqual(device.rebootCount, 1)
    }

    /// What a client that subscribed hears from a newer server (`result-feedback=1`): the
    /// result, then the link ends; OTA_SUCCESS too, before the reboot.
    func testSubscribedClientHearsTheResultBeforeTheLinkEnds() async throws {
        var settings = Self.smallImages
        settings.resultFeedback = true
        try makeDevice(settings)
        try await link.setNotifications(enabled: true, for: ota, preferring: .notifications)
        var packets = Self.packets(Self.image(body: 0x100))
        packets[3][5] ^= 0x01
        try await write([command(0xFF01)] + packets.prefix(4))
        let notification = try await link.nextNotification(until: link.now + .seconds(1))
        XCTAssertEqual(notification?.value, [0x06, 0xFF, 0x03, 0x00], "OTA_DATA_CRC_ERR")
        let end = await linkEnd()
        XCTAssertTrue(end?.contains("OTA_DATA_CRC_ERR") == true, String(describing: end))

        try await reconnect()
        try await link.setNotifications(enabled: true, for: ota, preferring: .notifications)
        let image = Self.image(body: 0x100)
        try await write([command(0xFF01)] + Self.packets(image))
        try await write([TelinkOTAEndCommand(lastIndex: UInt16(Self.packets(image).count - 1)).bytes])
        let success = try await link.nextNotification(until: link.now + .seconds(1))
        XCTAssertEqual(success?.value, [0x06, 0xFF, 0x00, 0x00], "OTA_SUCCESS")
        let ended = await linkEnd()
        XCTAssertTrue(ended?.contains("OTA_SUCCESS") == true, String(describing: ended))
    }

    /// An older server (the default) notifies nothing, subscribed or not: the link just ends.
    func testOlderServerNotifiesNoResult() async throws {
        try makeDevice()
        try await link.setNotifications(enabled: true, for: ota, preferring: .notifications)
        var packets = Self.packets(Self.image(body: 0x100))
        packets[3][5] ^= 0x01
        try await write([command(0xFF01)] + packets.prefix(4))
        let end = await linkEnd()
        XCTAssertTrue(end?.contains("OTA_DATA_CRC_ERR") == true, String(describing: end))
        XCTAssertEqual(device.results, [.dataCRCError])
    }

    /// Each refusal ends the OTA at the packet that shows it; the device erases what it wrote,
    /// reboots and runs its old image.
    func testRefusalsEndTheOTAAndTheOldImageRuns() async throws {
        let image = Self.image(body: 0x100)
        let packets = Self.packets(image)
        let last = UInt16(packets.count - 1)
        var badCRC = packets
        badCRC[5][19] ^= 0xFF
        var lostPacket = packets
        lostPacket.remove(at: 7)
        var badTrailer = packets
        badTrailer[badTrailer.count - 1] = TelinkOTADataPacket(index: last, data: [1, 2, 3, 4]).bytes
        var noMark = image
        noMark[8] = 0x4C
        var tooSmall = image
        tooSmall.replaceSubrange(0x18..<0x1C, with: [0x20, 0, 0, 0])
        let cases: [(String, [[UInt8]], TelinkOTAResult)] = [
            ("bad packet CRC", badCRC, .dataCRCError),
            ("lost packet", lostPacket, .dataPacketSequenceError),
            ("repeated packet", Array(packets.prefix(4)) + [packets[3]], .dataPacketSequenceError),
            ("bad CRC-32 trailer", badTrailer, .firmwareCheckError),
            ("no KNLT", Self.packets(noMark), .firmwareMarkError),
            ("size below the minimum", Self.packets(tooSmall), .firmwareSizeError),
            ("fwupd's end index", packets + [TelinkOTAEndCommand(lastIndex: UInt16(packets.count >> 4) - 1).bytes], .dataIncomplete),
            ("a second start", Array(packets.prefix(3)) + [command(0xFF01)], .flowError),
            ("an unknown command", Array(packets.prefix(3)) + [command(0xFF07)], .packetInvalid),
        ]
        for (name, writes, expected) in cases {
            try makeDevice()
            do {
                try await write([command(0xFF01)] + writes + [TelinkOTAEndCommand(lastIndex: last).bytes])
            } catch {
                // the link may end under the writes
            }
            _ = await linkEnd()
            XCTAssertEqual(device.results.first, expected, name)
            try await reconnect()
            let revision = try await readRevision()
        XCTAssertEqual(revision, "1.0.0", name)
            XCTAssertNil(device.running.image, name)
            XCTAssertEqual(device.rebootCount, 1, "\(name): erased and rebooted")
        }
    }

    /// Data before a start: refused, nothing written, so no reboot (the link just ends).
    func testDataWithoutStartEndsTheLinkWithoutAReboot() async throws {
        try makeDevice()
        try await write([Self.packets(Self.image(body: 0x40))[0]])
        _ = await linkEnd()
        XCTAssertEqual(device.results, [.flowError])
        XCTAssertEqual(device.rebootCount, 0)
        XCTAssertTrue(device.isAdvertising(at: world.now))
    }

    /// The firmware check off: the size need not be 16n + 4 and no trailer is checked.
    func testWithoutTheFirmwareCheckAnySizeIsTaken() async throws {
        var settings = Self.smallImages
        settings.firmwareCheck = false
        try makeDevice(settings)
        var image = Array(Self.image(body: 0x110).prefix(0x107))
        image.replaceSubrange(0x18..<0x1C, with: [0x07, 0x01, 0, 0])
        let packets = Self.packets(image)
        try await write([command(0xFF01)] + packets + [TelinkOTAEndCommand(lastIndex: UInt16(packets.count - 1)).bytes])
        _ = await linkEnd()
        XCTAssertEqual(device.results, [.success])
        try await reconnect()
        XCTAssertEqual(device.running.image, image)
    }

    // MARK: - Lost links and timeouts

    /// A lost link leaves the OTA running: a start meanwhile is refused (OTA_FLOW_ERR); without
    /// one, the packet timeout (5 s) ends it and, with no link, the feedback timeout (4 s) finishes
    /// it: erase, reboot, old image.
    func testLostLinkEndsTheOTAByItsTimeouts() async throws {
        try makeDevice()
        let packets = Self.packets(Self.image(body: 0x100))
        try await write([command(0xFF01)] + packets.prefix(6))
        let lostAt = world.now
        await link.disconnect()
        XCTAssertTrue(device.isReceiving, "the OTA goes on without its link")

        link = try world.connectLink(to: address, timeout: .seconds(1))
        try await write([command(0xFF01)])
        let end = await linkEnd()
        XCTAssertTrue(end?.contains("OTA_FLOW_ERR") == true, String(describing: end))
        XCTAssertEqual(device.rebootCount, 1, "what the first OTA wrote is erased")

        try makeDevice()
        try await write([command(0xFF01)] + packets.prefix(6))
        let cutAt = world.now
        await link.disconnect()
        world.advanceClock(to: cutAt + .seconds(5) - .milliseconds(100))
        XCTAssertTrue(device.isReceiving)
        world.advanceClock(to: cutAt + .seconds(5) + .milliseconds(100))
        XCTAssertEqual(device.results, [.dataPacketTimeout])
        XCTAssertEqual(device.rebootCount, 0, "the feedback goes on 4 s")
        world.advanceClock(to: cutAt + .seconds(9) + .milliseconds(100))
        XCTAssertEqual(device.rebootCount, 1)
        XCTAssertFalse(device.isAdvertising(at: world.now), "erasing, then booting")
        _ = lostAt
    }

    /// The whole OTA may take 30 s by default; then the device ends it and its link.
    func testProcessTimeoutEndsASlowOTA() async throws {
        try makeDevice()
        let packets = Self.packets(Self.image(body: 0x100))
        let start = world.now
        try await write([command(0xFF01)])
        var sent = 0
        do {
            for packet in packets.prefix(10) {
                try await link.sleep(until: link.now + .seconds(4))
                try await write([packet])
                sent += 1
            }
        } catch {
            // the device ended the link
        }
        XCTAssertEqual(sent, 7, "packets 4 s apart: the 8th comes after the 30 s")
        let end = await linkEnd(within: .seconds(10))
        XCTAssertTrue(end?.contains("OTA_TIMEOUT") == true, String(describing: end))
        XCTAssertEqual(device.results, [.timeout])
        XCTAssertGreaterThanOrEqual(world.now - start, .seconds(30))
    }

    // MARK: - Configuration

    func testSimulatorKeysConfigureTheServer() throws {
        let configuration = try SimulatorConfiguration(parsing:
            "telink-ota?firmware-revision=3.1.4&firmware-check=0&min-size=64&ota-timeout-s=120&packet-timeout-s=2&boot-ms=50"
                + "&result-feedback=1")
        let world = try SimulatedDeviceCatalog.makeWorld(configuration)
        let device = try XCTUnwrap(world.peripherals.first as? TelinkOTADevice)
        XCTAssertEqual(device.running.revision, "3.1.4")
        XCTAssertFalse(device.settings.firmwareCheck)
        XCTAssertEqual(device.settings.minimumImageSize, 64)
        XCTAssertEqual(device.settings.processTimeout, .seconds(120))
        XCTAssertEqual(device.settings.packetTimeout, .seconds(2))
        XCTAssertEqual(device.bootTime, .milliseconds(50))
        XCTAssertTrue(device.settings.resultFeedback)
        XCTAssertFalse(TelinkOTAServerSettings().resultFeedback, "an older server by default")
        for bad in ["telink-ota?firmware-check=2", "telink-ota?result-feedback=yes", "telink-ota?ota-timeout-s=4", "vendor-ctrlpt?min-size=64"] {
            XCTAssertThrowsError(try SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(parsing: bad)), bad)
        }
    }
}
