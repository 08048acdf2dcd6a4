import DFUBytes
import DFUGATT
import DFUPackage
@testable import DFUSimulator
import XCTest

/// `sim:silabs-ota` at the ATT level: the in-place OTA DFU application and the AppLoader as
/// gecko_sdk 4.4.1 and AN1086 describe them (control words 0x00, 0x03, 0x04; AppLoader ATT
/// error codes; a reset at every disconnect from the AppLoader).
final class SilabsOTADeviceTests: XCTestCase {
    private let address = DeviceAddress(string: "C0:FF:EE:00:00:01")!
    private var device: SilabsOTADevice!
    private var world: SimulatedWorld!
    private var link: SimulatedLink!

    private func gbl(_ count: Int = 600, version: UInt32 = 0x0002_0000) -> [UInt8] {
        GBLBuilder(version: version).build(program: (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    }

    private func characteristic(_ uuid: BluetoothUUID) throws -> GATTCharacteristic {
        try XCTUnwrap(device.services.first?.characteristics.first { $0.uuid == uuid }, "\(uuid) in mode \(device.mode)")
    }

    /// XCTAssertEqual for values awaited first (its autoclosures cannot await).
    private func expect<Value: Equatable>(_ got: Value?, _ wanted: Value?, _ message: String = "",
                                          file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(got, wanted, message, file: file, line: line)
    }

    private func makeDevice() throws {
        device = SilabsOTADevice(address: address, flash: FlashTiming(writePerByte: .zero, pageErase: .zero))
        world = SimulatedWorld(name: "sim:silabs-ota", settings: LinkSettings(mtu: 247), peripherals: [device])
        link = try world.connectLink(to: address, timeout: .seconds(1))
    }

    /// The ATT error code a write got, or nil for a write response (or none, without response).
    private func answer(_ write: () async throws(GATTError) -> Void) async throws(GATTError) -> UInt8? {
        do {
            try await write()
        } catch {
            if case let .attError(code, _) = error.kind { return code }
            throw error
        }
        return nil
    }

    /// Writes OTA Control; the ATT error code, or nil for a write response.
    private func control(_ word: UInt8) async throws -> UInt8? {
        let control = try characteristic(SilabsOTADevice.controlUUID)
        let link = self.link!
        return try await answer { () throws(GATTError) in try await link.write([word], to: control, type: .withResponse) }
    }

    /// Sends `bytes` to OTA Data in MTU - 3 writes; the first ATT error code, if any.
    private func send(_ bytes: [UInt8], type: GATTWriteType = .withoutResponse) async throws -> UInt8? {
        let data = try characteristic(SilabsOTADevice.dataUUID)
        let link = self.link!
        var start = 0
        while start < bytes.count {
            let end = min(start + link.mtu - 3, bytes.count)
            let piece = Array(bytes[start..<end])
            if let code = try await answer({ () throws(GATTError) in try await link.write(piece, to: data, type: type) }) {
                return code
            }
            start = end
        }
        // Write commands leave in the next connection events: let them reach the device.
        if type == .withoutResponse { try await link.sleep(until: link.now + .milliseconds(300)) }
        return nil
    }

    /// Application -> AppLoader: connect again once it advertises.
    private func enterAppLoader() async throws {
        expect(try await control(0x00), nil)
        _ = try? await link.nextNotification(until: link.now + .seconds(3))
        XCTAssertFalse(link.isConnected, "the application closed the link")
        try await reconnect()
        XCTAssertEqual(device.mode, .appLoader)
    }

    private func reconnect() async throws {
        let seen = try await world.waitForAdvertisement(from: address, timeout: .seconds(5))
        XCTAssertNotNil(seen, "advertises again")
        link = try world.connectLink(to: address, timeout: .seconds(1))
    }

    func testTheApplicationClosesTheLinkASecondAfterTheWriteAndBootsTheAppLoader() async throws {
        try makeDevice()
        XCTAssertEqual(device.advertisement.name, "SiLabs-App")
        XCTAssertNil(device.services.first?.characteristics.first { $0.uuid == SilabsOTADevice.dataUUID },
                     "the application has no OTA Data")
        let written = link.now
        expect(try await control(0x00), nil, "answered first")
        XCTAssertTrue(link.isConnected)
        _ = try? await link.nextNotification(until: written + .milliseconds(900))
        XCTAssertTrue(link.isConnected, "still up before 1 s")
        _ = try? await link.nextNotification(until: written + .milliseconds(1100))
        XCTAssertFalse(link.isConnected, "closed at 1 s")
        XCTAssertFalse(device.isAdvertising(at: world.now), "booting")
        try await reconnect()
        XCTAssertEqual(device.mode, .appLoader)
        XCTAssertEqual(device.advertisement.name, "OTA")
        XCTAssertEqual(device.advertisement.address, address, "the same address")
        let properties = try characteristic(SilabsOTADevice.dataUUID).properties
        XCTAssertTrue(properties.contains(.write) && properties.contains(.writeWithoutResponse))
        XCTAssertNotEqual(try characteristic(SilabsOTADevice.controlUUID).valueHandle, 3, "another GATT database")
    }

    func testVersionCharacteristicsOfTheAppLoader() async throws {
        try makeDevice()
        try await enterAppLoader()
        expect(try await link.read(try characteristic(SilabsOTADevice.appLoaderVersionUUID)),
                       [0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x17, 0x0B])
        expect(try await link.read(try characteristic(SilabsOTADevice.otaVersionUUID)), [0x03])
        expect(try await link.read(try characteristic(SilabsOTADevice.bootloaderVersionUUID)), [0x00, 0x00, 0x04, 0x02])
        expect(try await link.read(try characteristic(SilabsOTADevice.applicationVersionUUID)), [0x01, 0x00, 0x01, 0x00])
    }

    func testAWholeFileIsVerifiedAndBootsWhenTheClientCloses() async throws {
        try makeDevice()
        try await enterAppLoader()
        let file = gbl()
        expect(try await control(0x00), nil)
        expect(try await send(file), nil)
        XCTAssertTrue(device.hasVerifiedImage)
        expect(try await control(0x03), nil)
        XCTAssertEqual(device.mode, .appLoader, "it waits for the link to close")
        await link.disconnect()
        XCTAssertEqual(device.mode, .application)
        XCTAssertEqual(device.application, SilabsOTADevice.Application(gbl: file, version: 0x0002_0000))
        try await reconnect()
        expect(try await link.read(try characteristic(SilabsOTADevice.applicationVersionUUID)), [0x00, 0x00, 0x02, 0x00])
    }

    func testPaddingAfterTheEndTagIsIgnored() async throws {
        try makeDevice()
        try await enterAppLoader()
        expect(try await control(0x00), nil)
        expect(try await send(gbl(601) + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF], type: .withResponse), nil)
        expect(try await control(0x03), nil)
    }

    /// AN1086 "OTA Error Codes": data or the end before 0x00 is 0x81; a bad CRC is 0x80, on the
    /// data write with response that completes the end tag and again at 0x03; a file that is
    /// not a GBL is 0x84; an incomplete one is refused at 0x03.
    func testErrorCodes() async throws {
        try makeDevice()
        try await enterAppLoader()
        expect(try await send([1, 2, 3], type: .withResponse), 0x81)
        expect(try await control(0x03), 0x81)
        expect(try await control(0x00), nil)
        var damaged = gbl()
        damaged[200] ^= 0x01
        expect(try await send(damaged, type: .withResponse), 0x80)
        expect(try await control(0x03), 0x80)
        expect(try await control(0x00), nil, "0x00 begins again")
        expect(try await send(Array(gbl().prefix(300))), nil)
        expect(try await control(0x03), 0x80, "incomplete: not verified")
        expect(try await control(0x00), nil)
        var foreign = gbl()
        foreign[0] = 0x00
        expect(try await send(foreign), nil, "without response: nothing to answer")
        expect(try await control(0x03), 0x84)
        expect(try await control(0x00), nil)
        var outOfOrder = ByteWriter()
        let file = GBLFile(gbl())
        for index in [0, 2, 1, 3] { outOfOrder.append(bytes: gbl()[file.tags[index].offset..<file.tags[index].end]) }
        expect(try await send(outOfOrder.bytes, type: .withResponse), 0x84)
    }

    func testEncryptedFilesAreNotSupportedWithoutAKey() async throws {
        try makeDevice()
        try await enterAppLoader()
        var encrypted = gbl()
        encrypted[12] = 0x01  // GBL_TYPE_ENCRYPTION_AESCCM in the header's type
        expect(try await control(0x00), nil)
        expect(try await send(encrypted, type: .withResponse), 0x84)
    }

    /// Every disconnect resets the AppLoader: before any data the old application boots; after
    /// program data it is gone and the AppLoader comes back, with the upload to start over.
    func testDisconnectsResetTheDevice() async throws {
        try makeDevice()
        try await enterAppLoader()
        await link.disconnect()
        try await reconnect()
        XCTAssertEqual(device.mode, .application, "nothing was sent: the untouched application")

        try await enterAppLoader()
        expect(try await control(0x00), nil)
        expect(try await send(Array(gbl().prefix(40))), nil)
        await link.disconnect()
        try await reconnect()
        XCTAssertEqual(device.mode, .application, "header tags only: no program data reached flash")

        try await enterAppLoader()
        expect(try await control(0x00), nil)
        let file = gbl()
        expect(try await send(Array(file.prefix(300))), nil)
        await link.disconnect()
        XCTAssertNil(device.application, "program data overwrote the application")
        try await reconnect()
        XCTAssertEqual(device.mode, .appLoader)
        XCTAssertEqual(device.stage(of: TargetFirmware(bytes: file)).stage, .overwritten)
        expect(try await link.read(try characteristic(SilabsOTADevice.applicationVersionUUID)), [0, 0, 0, 0],
                       "no valid application: version zero (AN1086)")
        // A new boot parses from the header: data without 0x00 is refused, and the rest of the
        // file after 0x00 is not a GBL.
        expect(try await send(Array(file.suffix(from: 300)), type: .withResponse), 0x81)
        expect(try await control(0x00), nil)
        expect(try await send(Array(file.suffix(from: 300)), type: .withResponse), 0x84)
    }

    func testCloseRequestEndsTheLinkFromTheDevice() async throws {
        try makeDevice()
        try await enterAppLoader()
        expect(try await control(0x00), nil)
        expect(try await send(gbl()), nil)
        expect(try await control(0x04), nil)
        _ = try? await link.nextNotification(until: link.now + .milliseconds(200))
        XCTAssertFalse(link.isConnected)
        XCTAssertEqual(device.mode, .application)
    }

    func testStageReports() async throws {
        try makeDevice()
        let file = gbl()
        let target = TargetFirmware(bytes: file)
        XCTAssertEqual(device.stage(of: target).stage, .unchanged)
        try await enterAppLoader()
        expect(try await control(0x00), nil)
        expect(try await send(Array(file.prefix(400))), nil)
        XCTAssertEqual(device.stage(of: target).stage, .overwritten)
        expect(try await send(Array(file.suffix(from: 400))), nil)
        XCTAssertEqual(device.stage(of: target).stage, .pending)
        await link.disconnect()
        XCTAssertEqual(device.stage(of: target).stage, .installed)
    }
}
