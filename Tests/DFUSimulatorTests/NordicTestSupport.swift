import DFUBytes
import DFUGATT
import DFUPackage
import DFUSimulator
import XCTest

/// Hand-encoded dfu-cc.proto init packets (proto2 wire format: tag = field << 3 | wire type;
/// varints little-endian base 128), so that tests do not depend on an encoder under test.
struct HandEncodedInitPacket {
    var firmwareVersion: UInt32? = 1
    var hardwareVersion: UInt32? = 52
    var type: UInt32? = 0
    var softDeviceSize: UInt32?
    var bootloaderSize: UInt32?
    var applicationSize: UInt32?
    var hashType: UInt32 = 3
    var hash: [UInt8] = []
    /// SignedCommand with this signature type and signature; nil: a bare Command.
    var signature: (type: UInt32, bytes: [UInt8])?

    /// An application init packet for `firmware` (SHA-256 stored byte-reversed).
    static func application(for firmware: [UInt8], version: UInt32 = 1) -> HandEncodedInitPacket {
        HandEncodedInitPacket(firmwareVersion: version, applicationSize: UInt32(firmware.count),
                              hash: Array(SHA256.digest(firmware).reversed()))
    }

    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        repeat {
            let low = UInt8(value & 0x7F)
            value >>= 7
            bytes.append(value == 0 ? low : low | 0x80)
        } while value != 0
        return bytes
    }

    static func field(_ number: UInt64, varint value: UInt32?) -> [UInt8] {
        guard let value else { return [] }
        return varint(number << 3) + varint(UInt64(value))
    }

    static func field(_ number: UInt64, bytes: [UInt8]) -> [UInt8] {
        varint(number << 3 | 2) + varint(UInt64(bytes.count)) + bytes
    }

    var initCommand: [UInt8] {
        Self.field(1, varint: firmwareVersion) + Self.field(2, varint: hardwareVersion) + Self.field(4, varint: type)
            + Self.field(5, varint: softDeviceSize) + Self.field(6, varint: bootloaderSize)
            + Self.field(7, varint: applicationSize)
            + Self.field(8, bytes: Self.field(1, varint: hashType) + Self.field(2, bytes: hash))
    }

    var bytes: [UInt8] {
        let command = Self.field(1, varint: 1) + Self.field(2, bytes: initCommand)
        guard let signature else { return Self.field(1, bytes: command) }
        return Self.field(2, bytes: Self.field(1, bytes: command) + Self.field(2, varint: signature.type)
            + Self.field(3, bytes: signature.bytes))
    }
}

/// The central side of Secure DFU at the byte level: control-point writes with response,
/// packet writes without response, notifications read one by one.
final class SecureDFUClient {
    let world: SimulatedWorld
    var link: SimulatedLink
    let address: DeviceAddress

    static let controlPoint = GATTCharacteristic(service: NordicSecureDFUDevice.serviceUUID,
                                                 uuid: NordicSecureDFUDevice.controlPointUUID, valueHandle: 3,
                                                 properties: [.write, .notify])
    static let packet = GATTCharacteristic(service: NordicSecureDFUDevice.serviceUUID,
                                           uuid: NordicSecureDFUDevice.packetUUID, valueHandle: 6,
                                           properties: [.writeWithoutResponse, .write])

    init(world: SimulatedWorld, address: DeviceAddress) throws {
        self.world = world
        self.address = address
        self.link = try world.connectLink(to: address, timeout: .seconds(1))
    }

    var mtu: Int { link.mtu }

    /// Connects again, waiting up to `timeout` for the device to advertise (a bootloader that
    /// reset after an update is silent while it activates and boots).
    func reconnect(to address: DeviceAddress? = nil, timeout: Duration = .seconds(30)) throws {
        link = try world.connectLink(to: address ?? self.address, timeout: timeout)
    }

    /// The buttonless characteristic of an application in `mode`.
    static func buttonless(_ mode: ButtonlessMode) -> GATTCharacteristic {
        GATTCharacteristic(service: NordicSecureDFUDevice.serviceUUID,
                           uuid: mode == .bonded ? NordicSecureDFUDevice.buttonlessBondedUUID : NordicSecureDFUDevice.buttonlessUnbondedUUID,
                           valueHandle: NordicSecureDFUDevice.buttonlessHandle, properties: [.write, .indicate])
    }

    /// Asks the application (buttonless, `mode`) to enter its bootloader: indications on, then
    /// 01. Throws what the write threw (the link may be gone before its response).
    func enterBootloader(_ mode: ButtonlessMode) async throws {
        let characteristic = Self.buttonless(mode)
        try await link.setNotifications(enabled: true, for: characteristic)
        try await link.write([0x01], to: characteristic, type: .withResponse)
    }

    /// Waits for the link to end (the bootloader ends it to reset) and returns why; nil when it
    /// is still up after `timeout`.
    func linkEnd(within timeout: Duration = .seconds(5)) async -> String? {
        do {
            while try await link.nextNotification(until: link.now + timeout) != nil {}
            return nil
        } catch {
            return error.detail
        }
    }

    /// Writes a command and returns the next notification (nil when none came within 5 s).
    func command(_ bytes: [UInt8]) async throws -> [UInt8]? {
        try await link.write(bytes, to: Self.controlPoint, type: .withResponse)
        return try await notification()
    }

    func notification(within timeout: Duration = .seconds(5)) async throws -> [UInt8]? {
        guard let notification = try await link.nextNotification(until: link.now + timeout) else { return nil }
        XCTAssertLessThanOrEqual(notification.value.count, link.mtu - 3)
        return notification.value
    }

    /// Sends `bytes` on the packet characteristic in ATT_MTU-3 writes.
    func stream(_ bytes: [UInt8], type: GATTWriteType = .withoutResponse) async throws {
        var start = 0
        while start < bytes.count {
            let end = min(start + link.mtu - 3, bytes.count)
            try await link.write(Array(bytes[start..<end]), to: Self.packet, type: type)
            start = end
        }
    }

    static func create(_ type: UInt8, size: Int) -> [UInt8] {
        [0x01, type] + le32(size)
    }

    static func le32(_ value: Int) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    static func le32(crcOf bytes: [UInt8]) -> [UInt8] {
        let crc = CRC32.checksum(bytes)
        return (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * UInt32($0))) }
    }

    /// The whole Secure DFU flow for one image as nRF Connect / nrfutil run it; returns the
    /// answer to the last EXECUTE.
    func flash(initPacket: [UInt8], firmware: [UInt8]) async throws -> [UInt8]? {
        let value1 = try await command([0x02, 0x00, 0x00])
        XCTAssertEqual(value1, [0x60, 0x02, 0x01])
        let value2 = try await command([0x06, 0x01]).map { Array($0.prefix(3)) }
        XCTAssertEqual(value2, [0x60, 0x06, 0x01])
        let value3 = try await command(Self.create(1, size: initPacket.count))
        XCTAssertEqual(value3, [0x60, 0x01, 0x01])
        try await stream(initPacket)
        let value4 = try await command([0x03])
        XCTAssertEqual(value4, [0x60, 0x03, 0x01] + Self.le32(initPacket.count)
            + Self.le32(crcOf: initPacket))
        let accepted = try await command([0x04])
        guard accepted == [0x60, 0x04, 0x01] else { return accepted }
        let value5 = try await command([0x06, 0x02]).map { Array($0.prefix(3)) }
        XCTAssertEqual(value5, [0x60, 0x06, 0x01])
        var offset = 0
        var last: [UInt8]?
        while offset < firmware.count {
            let end = min(offset + 4096, firmware.count)
            let value6 = try await command(Self.create(2, size: end - offset))
            XCTAssertEqual(value6, [0x60, 0x01, 0x01])
            try await stream(Array(firmware[offset..<end]))
            let value7 = try await command([0x03])
            XCTAssertEqual(value7, [0x60, 0x03, 0x01] + Self.le32(end)
                + Self.le32(crcOf: Array(firmware[..<end])))
            last = try await command([0x04])
            offset = end
        }
        return last
    }
}

/// The legacy bootloader's characteristics, as a client that discovered them holds them.
enum LegacyDFUCharacteristics {
    static let controlPoint = GATTCharacteristic(service: NordicLegacyDFUDevice.serviceUUID,
                                                 uuid: NordicLegacyDFUDevice.controlPointUUID, valueHandle: 6,
                                                 properties: [.write, .notify])
    static let packet = GATTCharacteristic(service: NordicLegacyDFUDevice.serviceUUID,
                                           uuid: NordicLegacyDFUDevice.packetUUID, valueHandle: 3,
                                           properties: [.writeWithoutResponse])
}

enum NordicSamples {
    static let directory: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path + "/firmware-samples/nordic/"
    }()

    /// An entry of a sample package.
    static func entry(_ name: String, in package: String) throws -> [UInt8] {
        let archive = try ZipArchive(path: directory + package)
        return try XCTUnwrap(try archive.read(named: name, expectedSize: 1 << 20), "\(name) in \(package)")
    }

    static var publicKeyPath: String { directory + "test-signing-key-THROWAWAY.pub.pem" }
    static var wrongPublicKeyPath: String { directory + "wrong-key-THROWAWAY.pub.pem" }

    static func publicKey(_ path: String = publicKeyPath) throws -> [UInt8] {
        try SimulatorPublicKey(contentsOf: path).der
    }
}
