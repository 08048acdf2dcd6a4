import DFUBytes
import DFUGATT
import DFUPackage
@testable import DFUSimulator
import XCTest

/// `sim:dialog-suota` options that make it as demanding as shipped SDK 6 devices (issue 21):
/// a stored byte the XOR cannot see (`corrupt-stored`), an application that does not reset on
/// the reboot command (`on-reboot`), and what Device Information says about the running image
/// (`dis`). Each test checks what the device runs and what its banks hold.
final class DialogSUOTAOptionTests: XCTestCase {
    private var device: DialogSUOTADevice!
    private var world: SimulatedWorld!
    private var link: SimulatedLink!
    private var characteristics: [BluetoothUUID: GATTCharacteristic] = [:]
    private var serviceUUIDs: [BluetoothUUID] = []

    private static let spiBankAny: [UInt8] = [0x00, 0x00, 0x00, 0x13]
    private static let end: [UInt8] = [0x00, 0x00, 0x00, 0xFE]
    private static let reboot: [UInt8] = [0x00, 0x00, 0x00, 0xFD]

    private func makeDevice(_ options: String = "") throws {
        world = try SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(parsing: "dialog-suota?mtu=247" + options))
        device = try XCTUnwrap(world.peripherals.first as? DialogSUOTADevice)
    }

    private func connect() async throws {
        link = try world.connectLink(to: device.advertisement.address, timeout: .seconds(5))
        let services = try await link.discoverServices()
        serviceUUIDs = services.map(\.uuid)
        characteristics = Dictionary(uniqueKeysWithValues: services.flatMap(\.characteristics).map { ($0.uuid, $0) })
        try await link.setNotifications(enabled: true, for: characteristics[DialogSUOTADevice.statusUUID]!, preferring: .notifications)
    }

    private func write(_ uuid: BluetoothUUID, _ bytes: [UInt8], type: GATTWriteType = .withResponse) async throws {
        try await link.write(bytes, to: characteristics[uuid]!, type: type)
    }

    private func status() async throws -> UInt8? {
        try await link.nextNotification(until: link.now + .seconds(5))?.value.first
    }

    private func readString(_ uuid: BluetoothUUID) async throws -> String? {
        guard let characteristic = characteristics[uuid] else { return nil }
        return String(decoding: try await link.read(characteristic), as: UTF8.self)
    }

    /// MEM_DEV, the file and its XOR byte in 240-byte blocks, then the end command: every status.
    private func update(_ file: [UInt8]) async throws -> [UInt8?] {
        try await write(DialogSUOTADevice.memoryDeviceUUID, Self.spiBankAny)
        var statuses = [try await status()]
        let data = file + [file.reduce(0, ^)]
        var offset = 0
        while offset < data.count {
            let block = Array(data[offset..<min(offset + 240, data.count)])
            if offset == 0 || block.count != 240 {
                try await write(DialogSUOTADevice.patchLengthUUID, [UInt8(block.count & 0xFF), UInt8(block.count >> 8)])
            }
            var start = 0
            while start < block.count {
                let piece = Array(block[start..<min(start + 244, block.count)])
                try await write(DialogSUOTADevice.patchDataUUID, piece, type: .withoutResponse)
                start += piece.count
            }
            statuses.append(try await status())
            offset += block.count
        }
        try await write(DialogSUOTADevice.memoryDeviceUUID, Self.end)
        statuses.append(try await status())
        return statuses
    }

    /// The reboot command, then the boot (at most 3 s).
    private func rebootAndWait() async throws {
        try await write(DialogSUOTADevice.memoryDeviceUUID, Self.reboot)
        _ = try? await link.nextNotification(until: link.now + .seconds(3))
    }

    // MARK: - corrupt-stored

    func testAStoredByteTheXORCannotSeeIsAcceptedThenRejectedByTheBootloaderCRC() async throws {
        try makeDevice("&corrupt-stored=100")
        try await connect()
        let file = DialogSUOTADeviceTests.imageFile(codeSize: 300, version: "1.0.0")
        let statuses = try await update(file)
        XCTAssertEqual(statuses, [0x10, 0x02, 0x02, 0x02], "IMG_STARTED, CMP_OK per block, CMP_OK at the end: the XOR passed")
        XCTAssertEqual(device.validBanks, [true, true], "the end command marked the bank valid")
        let stored = try XCTUnwrap(device.bankFiles[1])
        XCTAssertEqual(stored.count, file.count)
        XCTAssertEqual(stored.indices.filter { stored[$0] != file[$0] }, [100], "exactly the byte at offset 100")
        XCTAssertEqual(stored[100], file[100] ^ 0x01)
        XCTAssertEqual(stored.reduce(0, ^) ^ file.reduce(0, ^), 0x01, "flash differs: the XOR of what was received did not")
        XCTAssertEqual(device.nextBootBank, 0, "the bootloader's CRC-32 of bank 2 fails: bank 1 boots")
        XCTAssertEqual(device.stage(of: TargetFirmware(bytes: file)).stage, .unchanged)

        try await rebootAndWait()
        XCTAssertFalse(link.isConnected)
        await world.sleep(until: world.now + .milliseconds(1100))
        XCTAssertEqual(device.rebootCount, 1)
        XCTAssertEqual(device.runningBank, 0)
        XCTAssertEqual(device.runningImage, DialogSUOTADevice.factoryImage, "the factory image runs")
        let report = device.stage(of: TargetFirmware(bytes: file))
        XCTAssertEqual(report.stage, .unchanged)
        XCTAssertTrue(report.summary.contains("fails the header's CRC-32"), report.summary)
        XCTAssertTrue(report.summary.contains("runs 0.9.0"), report.summary)
    }

    func testWithoutTheOptionTheSameUpdateBoots() async throws {
        try makeDevice()
        try await connect()
        let file = DialogSUOTADeviceTests.imageFile(codeSize: 300, version: "1.0.0")
        let statuses = try await update(file)
        XCTAssertEqual(statuses, [0x10, 0x02, 0x02, 0x02])
        XCTAssertEqual(device.bankFiles[1], file)
        try await rebootAndWait()
        await world.sleep(until: world.now + .milliseconds(1100))
        XCTAssertEqual(device.runningImage, file)
        XCTAssertEqual(device.stage(of: TargetFirmware(bytes: file)).stage, .installed)
    }

    // MARK: - on-reboot

    func testAnApplicationThatIgnoresTheRebootKeepsTheLinkAndTheOldImageUntilAPowerCycle() async throws {
        try makeDevice("&on-reboot=ignore")
        try await connect()
        let file = DialogSUOTADeviceTests.imageFile(codeSize: 300, version: "1.0.0")
        _ = try await update(file)
        try await write(DialogSUOTADevice.memoryDeviceUUID, Self.reboot)  // answered (no error)
        try await link.sleep(until: link.now + .seconds(3))
        XCTAssertTrue(link.isConnected, "the link stays up")
        XCTAssertEqual(device.rebootCount, 0)
        XCTAssertEqual(device.runningImage, DialogSUOTADevice.factoryImage, "the old image runs")
        XCTAssertEqual(device.validBanks, [true, true])
        XCTAssertEqual(device.nextBootBank, 1, "the new image is valid and boots at the next reset")
        XCTAssertEqual(device.stage(of: TargetFirmware(bytes: file)).stage, .pending)

        await link.disconnect()
        device.powerCycle(at: world.now)
        await world.sleep(until: world.now + .milliseconds(1100))
        XCTAssertEqual(device.runningImage, file, "a power cycle boots it")
        XCTAssertEqual(device.stage(of: TargetFirmware(bytes: file)).stage, .installed)
    }

    func testAnApplicationThatDisconnectsWithoutResettingAdvertisesTheOldImageAtOnce() async throws {
        try makeDevice("&on-reboot=disconnect")
        try await connect()
        let file = DialogSUOTADeviceTests.imageFile(codeSize: 300, version: "1.0.0")
        _ = try await update(file)
        try await rebootAndWait()
        XCTAssertFalse(link.isConnected, "app_suotar.c ends the link")
        XCTAssertEqual(device.rebootCount, 0, "user_app_on_disconnect does not reset")
        XCTAssertTrue(device.isAdvertising(at: world.now), "the application advertises again at once")
        XCTAssertEqual(device.runningImage, DialogSUOTADevice.factoryImage)
        XCTAssertEqual(device.stage(of: TargetFirmware(bytes: file)).stage, .pending)
        device.powerCycle(at: world.now)
        await world.sleep(until: world.now + .milliseconds(1100))
        XCTAssertEqual(device.runningImage, file)
    }

    // MARK: - dis

    func testDeviceInformationReportsTheSDKVersionForEveryImageByDefault() async throws {
        try makeDevice()
        try await connect()
        XCTAssertEqual(serviceUUIDs, [DialogSUOTADevice.serviceUUID, BluetoothUUID(string: "180A")!])
        let firmwareBefore = try await readString(DialogSUOTADevice.firmwareRevisionUUID)
        let softwareBefore = try await readString(DialogSUOTADevice.softwareRevisionUUID)
        XCTAssertEqual(firmwareBefore, "v_6.0.18.1182.1")
        XCTAssertEqual(softwareBefore, "v_6.0.18.1182.1")
        let file = DialogSUOTADeviceTests.imageFile(codeSize: 300, version: "1.0.0")
        _ = try await update(file)
        try await rebootAndWait()
        await world.sleep(until: world.now + .milliseconds(1100))
        XCTAssertEqual(device.runningImage, file)
        try await connect()
        let firmwareAfter = try await readString(DialogSUOTADevice.firmwareRevisionUUID)
        let softwareAfter = try await readString(DialogSUOTADevice.softwareRevisionUUID)
        XCTAssertEqual(firmwareAfter, firmwareBefore, "the same SDK: the same string, whatever image runs")
        XCTAssertEqual(softwareAfter, softwareBefore)
    }

    func testATaggedApplicationReportsTheImageThatRunsAfterACRCRejectionTheOldOne() async throws {
        try makeDevice("&dis=image&corrupt-stored=200")
        try await connect()
        let before = try await readString(DialogSUOTADevice.softwareRevisionUUID)
        XCTAssertEqual(before, "0.9.0")
        let firmware = try await readString(DialogSUOTADevice.firmwareRevisionUUID)
        XCTAssertEqual(firmware, "v_6.0.18.1182.1")
        let bad = DialogSUOTADeviceTests.imageFile(codeSize: 300, version: "1.0.0")
        _ = try await update(bad)
        try await rebootAndWait()
        await world.sleep(until: world.now + .milliseconds(1100))
        try await connect()
        let afterRejection = try await readString(DialogSUOTADevice.softwareRevisionUUID)
        XCTAssertEqual(afterRejection, "0.9.0", "the bootloader rejected the bank: the old image runs and says so")
    }

    func testATaggedApplicationReportsTheNewVersionOnceItRuns() async throws {
        try makeDevice("&dis=image")
        try await connect()
        let file = DialogSUOTADeviceTests.imageFile(codeSize: 300, version: "1.2.3")
        _ = try await update(file)
        try await rebootAndWait()
        await world.sleep(until: world.now + .milliseconds(1100))
        try await connect()
        let after = try await readString(DialogSUOTADevice.softwareRevisionUUID)
        XCTAssertEqual(after, "1.2.3")
    }

    func testDeviceInformationCanBeLeftOut() async throws {
        try makeDevice("&dis=none")
        try await connect()
        XCTAssertEqual(serviceUUIDs, [DialogSUOTADevice.serviceUUID])
        XCTAssertNil(device.readValue(handle: 25))
    }

    func testTheKeysAreCheckedAndBelongToDialogSUOTA() throws {
        XCTAssertThrowsError(try SimulatorConfiguration(parsing: "dialog-suota?corrupt-stored=10")) { error in
            XCTAssertTrue("\(error)".contains("corrupt-stored"), "\(error)")
        }
        XCTAssertThrowsError(try SimulatorConfiguration(parsing: "dialog-suota?on-reboot=sometimes")) { error in
            XCTAssertTrue("\(error)".contains("disconnect, ignore, reset"), "\(error)")
        }
        XCTAssertThrowsError(try SimulatorConfiguration(parsing: "dialog-suota?dis=yes"))
        XCTAssertThrowsError(try SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(parsing: "ti-oad?dis=none"))) { error in
            XCTAssertTrue("\(error)".contains("dis applies to sim:dialog-suota only"), "\(error)")
        }
        let configuration = try SimulatorConfiguration(parsing: "dialog-suota?corrupt-stored=64&on-reboot=disconnect&dis=image")
        XCTAssertEqual(configuration.dialogSUOTA.corruptStoredOffset, 64)
        XCTAssertEqual(configuration.dialogSUOTA.onReboot, .disconnect)
        XCTAssertEqual(configuration.dialogSUOTA.deviceInformation, .image)
    }
}
