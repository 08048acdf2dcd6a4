import DFUBytes
import DFUGATT
import DFUSimulator
import XCTest

/// An application with the buttonless DFU service that resets into its Secure DFU bootloader.
final class NordicButtonlessDFUTests: XCTestCase {
    private let applicationAddress = DeviceAddress(string: "C0:FF:EE:00:00:01")!
    private let hello = Array("hello".utf8)

    private func makeWorld(_ mode: ButtonlessMode, address: DeviceAddress? = nil, name: String? = nil,
                           mtu: Int = 23) -> (NordicSecureDFUDevice, SimulatedWorld) {
        let device = NordicSecureDFUDevice(address: address ?? applicationAddress, name: name, buttonless: mode,
                                           flash: FlashTiming(writePerByte: .zero, pageErase: .zero, hashPerByte: .zero))
        return (device, SimulatedWorld(name: "sim:nordic-secure-dfu", settings: LinkSettings(mtu: mtu), peripherals: [device]))
    }

    private func buttonless(_ uuid: BluetoothUUID) -> GATTCharacteristic {
        GATTCharacteristic(service: NordicSecureDFUDevice.serviceUUID, uuid: uuid, valueHandle: 9, properties: [.write, .indicate])
    }

    private func write(_ bytes: [UInt8], _ characteristic: GATTCharacteristic, on link: SimulatedLink) async throws -> [UInt8]? {
        try await link.write(bytes, to: characteristic, type: .withResponse)
        return try await link.nextNotification(until: link.now + .seconds(2))?.value
    }

    func testUnbondedEntryRebootsIntoTheBootloaderOnAddressPlusOne() async throws {
        let (device, world) = makeWorld(.unbonded)
        let seen = try await world.scan(timeout: .seconds(1))
        XCTAssertEqual(seen, [Advertisement(address: applicationAddress, name: "Nordic_Buttonless",
                                            serviceUUIDs: [BluetoothUUID(uuid16: 0xFE59)], rssi: -45)])
        let link = try world.connectLink(to: applicationAddress, timeout: .seconds(1))
        let services = try await link.discoverServices()
        let characteristic = buttonless(BluetoothUUID(string: "8EC90003-F315-4F60-9FB8-838830DAEA50")!)
        XCTAssertEqual(services, [GATTService(uuid: BluetoothUUID(uuid16: 0xFE59), characteristics: [characteristic])])
        try await link.setNotifications(enabled: true, for: characteristic)
        let value1 = try await write([0x01], characteristic, on: link)
        XCTAssertEqual(value1, [0x20, 0x01, 0x01])
        XCTAssertFalse(link.isConnected, "the application resets once the indication is out")
        XCTAssertEqual(link.address, applicationAddress, "the dropped link still names the address it connected to")
        XCTAssertEqual(device.mode, .bootloader)
        XCTAssertFalse(device.isAdvertising(at: link.now), "the bootloader checks the application, then starts")
        let resetAt = link.now

        let bootloaderAddress = DeviceAddress(string: "C0:FF:EE:00:00:02")!
        let again = try await world.scan(timeout: .seconds(5))
        XCTAssertEqual(world.now - resetAt, .milliseconds(1_100) + .milliseconds(100), "boot, then one advertising interval")
        XCTAssertEqual(again.map(\.address), [bootloaderAddress])
        XCTAssertEqual(again.map(\.name), ["DfuTarg"])
        do {
            _ = try world.connectLink(to: applicationAddress, timeout: .seconds(1))
            XCTFail("nothing advertises on the application's address any more")
        } catch {
            XCTAssertEqual(error.kind, .connectionFailed)
        }
        let client = try SecureDFUClient(world: world, address: bootloaderAddress)
        let bootloaderServices = try await client.link.discoverServices()
        XCTAssertEqual(bootloaderServices.first?.characteristics.map(\.uuid),
                       [NordicSecureDFUDevice.controlPointUUID, NordicSecureDFUDevice.packetUUID])
        XCTAssertEqual(bootloaderServices.first?.characteristics.map(\.properties),
                       [[.write, .notify], [.writeWithoutResponse, .write]])

        // After an application update the device runs the application again.
        let value2 = try await client.flash(initPacket: HandEncodedInitPacket.application(for: hello).bytes,
                                              firmware: hello)
        XCTAssertEqual(value2, [0x60, 0x04, 0x01])
        let value3 = try await world.scan(timeout: .seconds(10)).map(\.address)
        XCTAssertEqual(value3, [applicationAddress])
        XCTAssertEqual(device.mode, .application)
        XCTAssertEqual(device.rebootCount, 2)
    }

    func testBondedEntryKeepsTheAddressAndRefusesANewName() async throws {
        let (device, world) = makeWorld(.bonded)
        let link = try world.connectLink(to: applicationAddress, timeout: .seconds(1))
        let characteristic = buttonless(BluetoothUUID(string: "8EC90004-F315-4F60-9FB8-838830DAEA50")!)
        let value4 = try await link.discoverServices().first?.characteristics
        XCTAssertEqual(value4, [characteristic])
        try await link.setNotifications(enabled: true, for: characteristic)
        let value5 = try await write([0x02, 0x03, 0x41, 0x42, 0x43], characteristic, on: link)
        XCTAssertEqual(value5, [0x20, 0x02, 0x02])
        let value6 = try await write([0x01], characteristic, on: link)
        XCTAssertEqual(value6, [0x20, 0x01, 0x01])
        XCTAssertEqual(device.mode, .bootloader)
        let value7 = try await world.scan(timeout: .seconds(5)).map(\.address)
        XCTAssertEqual(value7, [applicationAddress])
    }

    func testUnbondedNameChangeAndUnknownOpcodes() async throws {
        let (_, world) = makeWorld(.unbonded, name: "MyApp", mtu: 247)
        let value8 = try await world.scan(timeout: .seconds(1)).map(\.name)
        XCTAssertEqual(value8, ["MyApp"])
        let link = try world.connectLink(to: applicationAddress, timeout: .seconds(1))
        let characteristic = buttonless(NordicSecureDFUDevice.buttonlessUnbondedUUID)
        try await link.setNotifications(enabled: true, for: characteristic)
        let value9 = try await write([0x02, 0x05, 0x41, 0x42], characteristic, on: link)
        XCTAssertEqual(value9, [0x20, 0x02, 0x05],
                       "the length byte says 5, 2 bytes follow")
        let value10 = try await write([0x02, 0x15] + [UInt8](repeating: 0x41, count: 21), characteristic, on: link)
        XCTAssertEqual(value10,
                       [0x20, 0x02, 0x05], "21 characters: too long")
        let value11 = try await write([0x07], characteristic, on: link)
        XCTAssertEqual(value11, [0x20, 0x07, 0x02])
        let value12 = try await write([0x02, 0x04, 0x44, 0x46, 0x55, 0x32], characteristic, on: link)
        XCTAssertEqual(value12, [0x20, 0x02, 0x01])
        let value13 = try await write([0x01], characteristic, on: link)
        XCTAssertEqual(value13, [0x20, 0x01, 0x01])
        let value14 = try await world.scan(timeout: .seconds(5)).map(\.name)
        XCTAssertEqual(value14, ["DFU2"])
    }

    func testWritesAreRefusedUntilIndicationsAreEnabled() async throws {
        let (device, world) = makeWorld(.unbonded)
        let link = try world.connectLink(to: applicationAddress, timeout: .seconds(1))
        let characteristic = buttonless(NordicSecureDFUDevice.buttonlessUnbondedUUID)
        do {
            try await link.write([0x01], to: characteristic, type: .withResponse)
            XCTFail("CCCD not configured")
        } catch {
            XCTAssertEqual(error.kind, .attError(code: 0xFD, handle: 9), "BLE_GATT_STATUS_ATTERR_CPS_CCCD_CONFIG_ERROR")
        }
        XCTAssertEqual(device.mode, .application)
        try await link.setNotifications(enabled: true, for: characteristic)
        let answer = try await write([0x01], characteristic, on: link)
        XCTAssertEqual(answer, [0x20, 0x01, 0x01])
    }

    func testAddressPlusOneIncrementsOnlyTheLeastSignificantByte() {
        let (device, _) = makeWorld(.unbonded, address: DeviceAddress(string: "C0:FF:EE:00:00:FF")!)
        XCTAssertEqual(device.bootloaderAddress.description, "C0:FF:EE:00:00:00")
        let (bonded, _) = makeWorld(.bonded, address: DeviceAddress(string: "C0:FF:EE:00:00:FF")!)
        XCTAssertEqual(bonded.bootloaderAddress.description, "C0:FF:EE:00:00:FF")
    }

    func testABootloaderWithoutButtonlessIgnoresTheButtonlessHandle() async throws {
        let device = NordicSecureDFUDevice(address: applicationAddress)
        let world = SimulatedWorld(name: "sim:nordic-secure-dfu", peripherals: [device])
        let link = try world.connectLink(to: applicationAddress, timeout: .seconds(1))
        let value15 = try await write([0x01], buttonless(NordicSecureDFUDevice.buttonlessUnbondedUUID), on: link)
        XCTAssertNil(value15)
        XCTAssertEqual(device.mode, .bootloader)
        XCTAssertEqual(device.advertisement.name, "DfuTarg")
    }
}
