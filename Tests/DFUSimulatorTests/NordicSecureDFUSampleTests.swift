import DFUBytes
import DFUGATT
import DFUPackage
import DFUSimulator
import XCTest

/// The simulated Secure DFU bootloader fed the packages nrfutil 6.1.7 made
/// (firmware-samples/nordic/, see make-nordic-samples.sh), signed with throwaway test keys.
final class NordicSecureDFUSampleTests: XCTestCase {
    private let address = DeviceAddress(string: "C0:FF:EE:00:00:01")!

    private func client(key: String?, mtu: Int = 247) throws -> (NordicSecureDFUDevice, SecureDFUClient) {
        let device = NordicSecureDFUDevice(address: address, publicKeyDER: try key.map { try NordicSamples.publicKey($0) },
                                           flash: FlashTiming(writePerByte: .zero, pageErase: .zero, hashPerByte: .zero))
        let world = SimulatedWorld(name: "sim:nordic-secure-dfu", settings: LinkSettings(mtu: mtu), peripherals: [device])
        return (device, try SecureDFUClient(world: world, address: address))
    }

    func testSignedApplicationWithTheRightKeyIsInstalled() async throws {
        let (device, client) = try client(key: NordicSamples.publicKeyPath)
        let dat = try NordicSamples.entry("app.dat", in: "app-signed.zip")
        let bin = try NordicSamples.entry("app.bin", in: "app-signed.zip")
        XCTAssertEqual(bin.count, 24_676)
        let value1 = try await client.flash(initPacket: dat, firmware: bin)
        XCTAssertEqual(value1, [0x60, 0x04, 0x01])
        XCTAssertTrue(device.installed == [NordicInstalledImage(type: .application, data: bin, firmwareVersion: 0x010203)], "installed: \(device.installed.map { ($0.type, $0.data.count, $0.firmwareVersion) })")
    }

    func testSignedApplicationWithAnotherKeyIsAnInvalidObject() async throws {
        let (device, client) = try client(key: NordicSamples.wrongPublicKeyPath)
        let dat = try NordicSamples.entry("app.dat", in: "app-signed.zip")
        let bin = try NordicSamples.entry("app.bin", in: "app-signed.zip")
        let value2 = try await client.flash(initPacket: dat, firmware: bin)
        XCTAssertEqual(value2, [0x60, 0x04, 0x05])
        XCTAssertTrue(device.installed == [], "installed: \(device.installed.map { ($0.type, $0.data.count, $0.firmwareVersion) })")
    }

    func testUnsignedApplicationNeedsABootloaderWithoutKey() async throws {
        let dat = try NordicSamples.entry("app.dat", in: "app-unsigned.zip")
        let bin = try NordicSamples.entry("app.bin", in: "app-unsigned.zip")
        let (_, strict) = try client(key: NordicSamples.publicKeyPath)
        let value3 = try await strict.flash(initPacket: dat, firmware: bin)
        XCTAssertEqual(value3, [0x60, 0x04, 0x0B, 0x08])
        let (device, open) = try client(key: nil, mtu: 23)
        let value4 = try await open.flash(initPacket: dat, firmware: bin)
        XCTAssertEqual(value4, [0x60, 0x04, 0x01])
        XCTAssertTrue(device.installed.map(\.data) == [bin])
    }

    func testSoftDeviceBootloaderThenApplication() async throws {
        let (device, client) = try client(key: NordicSamples.publicKeyPath)
        let package = "sd-bl-app-signed.zip"
        let softDeviceBootloader = try NordicSamples.entry("sd_bl.bin", in: package)
        let value5 = try await client.flash(initPacket: try NordicSamples.entry("sd_bl.dat", in: package),
                                              firmware: softDeviceBootloader)
        XCTAssertEqual(value5, [0x60, 0x04, 0x01])
        let ended = await client.linkEnd()
        XCTAssertNotNil(ended)
        try client.reconnect()
        let application = try NordicSamples.entry("app.bin", in: package)
        let value6 = try await client.flash(initPacket: try NordicSamples.entry("app.dat", in: package),
                                              firmware: application)
        XCTAssertEqual(value6, [0x60, 0x04, 0x01])
        XCTAssertTrue(device.installed == [
            NordicInstalledImage(type: .softDeviceBootloader, data: softDeviceBootloader, firmwareVersion: 2),
            NordicInstalledImage(type: .application, data: application, firmwareVersion: 5),
        ], "installed: \(device.installed.map { ($0.type, $0.data.count, $0.firmwareVersion) })")
        try client.reconnect()
        XCTAssertEqual(device.rebootCount, 2)
        XCTAssertEqual(device.activatedCount, 2)

        // The bootloader is now version 2: a bootloader package must be newer (version 7 is).
        let bootloader = try NordicSamples.entry("bootloader.bin", in: "bootloader-signed.zip")
        let value7 = try await client.flash(initPacket: try NordicSamples.entry("bootloader.dat", in: "bootloader-signed.zip"),
                                              firmware: bootloader)
        XCTAssertEqual(value7, [0x60, 0x04, 0x01])
        XCTAssertTrue(device.installed.last == NordicInstalledImage(type: .bootloader, data: bootloader, firmwareVersion: 7))
        try client.reconnect()
        let again = try NordicSamples.entry("bootloader.dat", in: "bootloader-signed.zip")
        let value8 = try await client.command(SecureDFUClient.create(1, size: again.count))
        XCTAssertEqual(value8, [0x60, 0x01, 0x01])
        try await client.stream(again)
        let value9 = try await client.command([0x04])
        XCTAssertEqual(value9, [0x60, 0x04, 0x0B, 0x05], "version 7 is not newer than 7")
    }
}
