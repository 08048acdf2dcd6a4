import DFUBytes
import DFUGATT
import DFUPackage
@testable import DFUSimulator
import XCTest

/// `sim:ti-oad` options that make it as demanding as shipped devices (issue 21): a BIM that
/// keeps the old image (`bim-crc=fails`), a reset before the enable answer (`enable-answer=lost`),
/// and `07` (get_sw_version) answering the running image's softVer before and after.
final class TIOADOptionTests: XCTestCase {
    private var device: TIOADDevice!
    private var world: SimulatedWorld!
    private var link: SimulatedLink!

    private let identify = GATTCharacteristic(service: TIOADDevice.serviceUUID, uuid: TIOADDevice.identifyUUID, valueHandle: 3,
                                              properties: [.write, .writeWithoutResponse, .notify])
    private let block = GATTCharacteristic(service: TIOADDevice.serviceUUID, uuid: TIOADDevice.blockUUID, valueHandle: 7,
                                           properties: [.write, .writeWithoutResponse, .notify])
    private let control = GATTCharacteristic(service: TIOADDevice.serviceUUID, uuid: TIOADDevice.controlUUID, valueHandle: 11,
                                             properties: [.writeWithoutResponse, .notify])

    private func makeDevice(_ options: String = "") throws {
        world = try SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(parsing: "ti-oad?mtu=247" + options))
        device = try XCTUnwrap(world.peripherals.first as? TIOADDevice)
    }

    private func connect() async throws {
        link = try world.connectLink(to: device.advertisement.address, timeout: .seconds(5))
        _ = try await link.discoverServices()
        for characteristic in [identify, control] {
            try await link.setNotifications(enabled: true, for: characteristic, preferring: .notifications)
        }
    }

    private func next() async throws -> [UInt8]? {
        try await link.nextNotification(until: link.now + .seconds(5))?.value
    }

    private func command(_ bytes: [UInt8]) async throws -> [UInt8]? {
        try await link.write(bytes, to: control, type: .withoutResponse)
        return try await next()
    }

    /// An off-chip application image with softVer `softwareVersion`, its CRC right.
    private func image(length: Int = 600, softwareVersion: String) -> [UInt8] {
        var header = TIOADImageHeader(imageID: "CC26x2R1", softwareVersion: softwareVersion, length: UInt32(length))
        var writer = ByteWriter()
        writer.append(bytes: header.encoded)
        writer.append(bytes: [0x01, 0xFE, 0xFF, 0xFF])
        writer.append(UInt32(length - 44), endianness: .little)
        writer.append(UInt32(0), endianness: .little)
        var bytes = writer.bytes + (0..<(length - 56)).map { UInt8(truncatingIfNeeded: $0 * 13) }
        header.crc32 = TIOADImageHeader.crc(of: bytes, length: length) ?? 0
        bytes.replaceSubrange(0..<44, with: header.encoded)
        return bytes
    }

    /// Identify, start and every block asked for: the status that ended the transfer.
    private func transfer(_ image: [UInt8]) async throws -> UInt8? {
        try await link.write(try TIOADImageHeader(decoding: image).identifyPayload, to: identify, type: .withResponse)
        let accepted = try await next()
        XCTAssertEqual(accepted, [0x00])
        var request = try await command([0x03])
        while let current = request, current.count == 6, current[0] == 0x12, current[1] == 0x00 {
            let number = Int(current[2]) | Int(current[3]) << 8
            let data = Array(image[(number * 240)..<min(image.count, (number + 1) * 240)])
            var writer = ByteWriter()
            writer.append(UInt32(number), endianness: .little)
            try await link.write(writer.bytes + data, to: block, type: .withoutResponse)
            request = try await next()
        }
        return request?[1]
    }

    /// Enable; the answer, or nil when the link dropped first. Then waits for the boot and connects again.
    private func enableAndReconnect() async throws -> [UInt8]? {
        try await link.write([0x04], to: control, type: .withoutResponse)
        let answer = try? await link.nextNotification(until: link.now + .seconds(1))
        _ = try? await link.nextNotification(until: link.now + .seconds(2))
        XCTAssertFalse(link.isConnected, "the reset drops the link")
        let seen = try await world.waitForAdvertisement(from: device.advertisement.address, timeout: .seconds(30))
        XCTAssertNotNil(seen, "advertises after the BIM")
        try await connect()
        return answer?.value
    }

    func testGetSoftwareVersionAnswersTheRunningImageBeforeAndAfter() async throws {
        try makeDevice()
        try await connect()
        let before = try await command([0x07])
        XCTAssertEqual(before, [0x07] + Array("0001".utf8))
        let new = image(softwareVersion: "0002")
        let status = try await transfer(new)
        XCTAssertEqual(status, 0x0E, "DL_COMPLETE")
        let enabled = try await enableAndReconnect()
        XCTAssertEqual(enabled, [0x04, 0x00])
        XCTAssertEqual(device.running, new)
        let after = try await command([0x07])
        XCTAssertEqual(after, [0x07] + Array("0002".utf8))
        XCTAssertEqual(device.stage(of: TargetFirmware(bytes: new)).stage, .installed)
    }

    func testABIMWhoseCRCCheckFailsKeepsTheFactoryImageAndTheSameVersionProvesNothing() async throws {
        try makeDevice("&bim-crc=fails")
        try await connect()
        let before = try await command([0x07])
        XCTAssertEqual(before, [0x07] + Array("0001".utf8))
        let new = image(softwareVersion: "0001")  // the same softVer as the running image
        let status = try await transfer(new)
        XCTAssertEqual(status, 0x0E, "the transfer itself passes: DL_COMPLETE")
        let enabled = try await enableAndReconnect()
        XCTAssertEqual(enabled, [0x04, 0x00], "enable is answered")
        XCTAssertEqual(device.running, device.factoryImage, "the BIM reverted to the factory image")
        XCTAssertNotEqual(device.running, new)
        XCTAssertEqual(device.bimRejected, new)
        XCTAssertEqual(device.rebootCount, 1)
        let after = try await command([0x07])
        XCTAssertEqual(after, before, "get_sw_version answers the same before and after")
        let report = device.stage(of: TargetFirmware(bytes: new))
        XCTAssertEqual(report.stage, .unchanged)
        XCTAssertTrue(report.summary.contains("CRC check failed"), report.summary)
    }

    func testAResetBeforeTheEnableAnswerLosesTheAnswerAndTheNewImageRuns() async throws {
        try makeDevice("&enable-answer=lost")
        try await connect()
        let new = image(softwareVersion: "0003")
        let status = try await transfer(new)
        XCTAssertEqual(status, 0x0E)
        let enabled = try await enableAndReconnect()
        XCTAssertNil(enabled, "no answer: the link is lost instead")
        XCTAssertEqual(device.running, new)
        let after = try await command([0x07])
        XCTAssertEqual(after, [0x07] + Array("0003".utf8), "the new image answers get_sw_version")
        XCTAssertEqual(device.stage(of: TargetFirmware(bytes: new)).stage, .installed)
    }

    func testTheKeysAreCheckedAndBelongToTIOAD() throws {
        XCTAssertThrowsError(try SimulatorConfiguration(parsing: "ti-oad?bim-crc=maybe")) { error in
            XCTAssertTrue("\(error)".contains("bim-crc must be one of fails, passes"), "\(error)")
        }
        XCTAssertThrowsError(try SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(parsing: "dialog-suota?enable-answer=lost")))
        let configuration = try SimulatorConfiguration(parsing: "ti-oad?bim-crc=fails&enable-answer=lost")
        XCTAssertTrue(configuration.tiOAD.bimCRCFails)
        XCTAssertTrue(configuration.tiOAD.enableAnswerLost)
    }
}
