import DFUBytes
import DFUGATT
import DFUPackage
@testable import DFUSimulator
import Foundation
import XCTest

/// `sim:silabs-ota` options that make it as demanding as a shipped AppLoader (issue 21): the
/// answer to 0x03 lost every time (`end-answer=lost`), refusals before any program data
/// (`compression=refused`, an unknown tag early, `app-start`, `version-dependency=checked`) that
/// leave the old application booting, and the application's version (`app-version`) read in
/// the application before and after.
final class SilabsOTAOptionTests: XCTestCase {
    private var device: SilabsOTADevice!
    private var world: SimulatedWorld!
    private var link: SimulatedLink!

    private func makeDevice(_ options: String = "") throws {
        world = try SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(parsing: "silabs-ota?mtu=247" + options))
        device = try XCTUnwrap(world.peripherals.first as? SilabsOTADevice)
        link = try world.connectLink(to: device.address, timeout: .seconds(5))
    }

    private func sample(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("firmware-samples/silabs/\(name)")
        return Array(try Data(contentsOf: url))
    }

    private func characteristic(_ uuid: BluetoothUUID) throws -> GATTCharacteristic {
        try XCTUnwrap(device.services.first?.characteristics.first { $0.uuid == uuid }, "\(uuid) in mode \(device.mode)")
    }

    /// The ATT error code a write got; nil for a write response (or none).
    private func answer(_ write: () async throws(GATTError) -> Void) async throws(GATTError) -> UInt8? {
        do {
            try await write()
        } catch {
            if case let .attError(code, _) = error.kind { return code }
            throw error
        }
        return nil
    }

    private func control(_ word: UInt8) async throws -> UInt8? {
        let control = try characteristic(SilabsOTADevice.controlUUID)
        let link = self.link!
        return try await answer { () throws(GATTError) in try await link.write([word], to: control, type: .withResponse) }
    }

    /// `bytes` to OTA Data in writes with response of MTU - 3: the first ATT error, if any.
    private func send(_ bytes: [UInt8]) async throws -> UInt8? {
        let data = try characteristic(SilabsOTADevice.dataUUID)
        let link = self.link!
        var start = 0
        while start < bytes.count {
            let piece = Array(bytes[start..<min(start + link.mtu - 3, bytes.count)])
            if let code = try await answer({ () throws(GATTError) in try await link.write(piece, to: data, type: .withResponse) }) {
                return code
            }
            start += piece.count
        }
        return nil
    }

    private func reconnect() async throws {
        let seen = try await world.waitForAdvertisement(from: device.address, timeout: .seconds(10))
        XCTAssertNotNil(seen, "advertises again")
        link = try world.connectLink(to: device.address, timeout: .seconds(5))
    }

    private func enterAppLoader() async throws {
        let answered = try await control(0x00)
        XCTAssertNil(answered)
        _ = try? await link.nextNotification(until: link.now + .seconds(3))
        try await reconnect()
        XCTAssertEqual(device.mode, .appLoader)
    }

    private func applicationVersion() async throws -> [UInt8] {
        try await link.read(try characteristic(SilabsOTADevice.applicationVersionUUID))
    }

    /// Enter the AppLoader, begin, send `file`: the first refusal (nil: none), then 0x03's answer.
    private func upload(_ file: [UInt8]) async throws -> (data: UInt8?, end: UInt8?) {
        try await enterAppLoader()
        let begun = try await control(0x00)
        XCTAssertNil(begun)
        let data = try await send(file)
        let end = try await control(0x03)
        return (data, end)
    }

    /// The link closes (the client, as bt_host_ota_dfu does), the device resets: it must come
    /// back as the application with `version`, its flash untouched.
    private func expectTheOldApplicationBoots(version: UInt32, file: [UInt8], _ what: String,
                                             line: UInt = #line) async throws {
        await link.disconnect()
        try await reconnect()
        XCTAssertEqual(device.mode, .application, what, line: line)
        XCTAssertEqual(device.application, SilabsOTADevice.Application(gbl: nil, version: version), what, line: line)
        XCTAssertEqual(device.advertisement.name, "SiLabs-App", what, line: line)
        let read = try await applicationVersion()
        XCTAssertEqual(read, SilabsOTADevice.u32(version), what, line: line)
        XCTAssertEqual(device.stage(of: TargetFirmware(bytes: file)).stage, .unchanged, what, line: line)
    }

    // MARK: - app-version

    func testTheApplicationReportsItsVersionBeforeAndAfterAnUpdate() async throws {
        try makeDevice("&app-version=0x00010005")
        let before = try await applicationVersion()
        XCTAssertEqual(before, [0x05, 0x00, 0x01, 0x00], "read in the application")
        let file = GBLBuilder(version: 0x0002_0003).build(program: (0..<700).map { UInt8(truncatingIfNeeded: $0 &* 3) })
        let result = try await upload(file)
        XCTAssertNil(result.data)
        XCTAssertNil(result.end)
        await link.disconnect()
        try await reconnect()
        XCTAssertEqual(device.mode, .application)
        let after = try await applicationVersion()
        XCTAssertEqual(after, [0x03, 0x00, 0x02, 0x00], "the new application's version")
    }

    // MARK: - end-answer=lost

    func testTheAnswerToEndIsLostEveryTimeAndTheVerifiedImageBootsAtTheDisconnect() async throws {
        try makeDevice("&end-answer=lost")
        let file = GBLBuilder(version: 0x0002_0000).build(program: (0..<900).map { UInt8(truncatingIfNeeded: $0 &* 5) })
        for attempt in 1...2 {
            try await enterAppLoader()
            let begun = try await control(0x00)
            XCTAssertNil(begun)
            let refused = try await send(file)
            XCTAssertNil(refused)
            XCTAssertTrue(device.hasVerifiedImage, "attempt \(attempt): the AppLoader verified the image")
            do {
                _ = try await control(0x03)
                XCTFail("attempt \(attempt): 0x03 must not be answered")
            } catch {
                XCTAssertFalse(link.isConnected, "attempt \(attempt): the link dropped instead")
            }
            XCTAssertTrue(device.controlLog.last?.hasPrefix("end: success") == true, "\(device.controlLog)")
            XCTAssertEqual(device.mode, .application, "attempt \(attempt): the disconnect booted the new application")
            XCTAssertEqual(device.application?.gbl, file)
            XCTAssertEqual(device.stage(of: TargetFirmware(bytes: file)).stage, .installed)
            try await reconnect()
            let version = try await applicationVersion()
            XCTAssertEqual(version, [0x00, 0x00, 0x02, 0x00])
        }
    }

    // MARK: - Refusals before program data

    func testACompressedProgramTagIsRefusedBeforeProgramDataAndTheOldApplicationBoots() async throws {
        let file = try sample("app-lz4.gbl")
        try makeDevice("&compression=refused")
        let result = try await upload(file)
        XCTAssertEqual(result.data, 0x84, "the LZ4 tag is unknown to this bootloader")
        XCTAssertEqual(result.end, 0x84)
        try await expectTheOldApplicationBoots(version: 0x0001_0001, file: file, "compression=refused")

        try makeDevice()
        let accepted = try await upload(file)
        XCTAssertNil(accepted.data, "by default the compressed tag is taken as before")
        XCTAssertNil(accepted.end)
    }

    func testAnUnknownTagBeforeProgramDataLeavesTheApplication() async throws {
        try makeDevice()
        var writer = ByteWriter()
        for word: UInt32 in [0x03A6_17EB, 8, 0x0300_0000, 0, 0x1234_5678, 4, 0] { writer.append(word, endianness: .little) }
        let file = writer.bytes + GBLBuilder(version: 0x0002_0000).build(program: [1, 2, 3, 4]).dropFirst(16)
        let result = try await upload(Array(file))
        XCTAssertEqual(result.data, 0x84)
        XCTAssertEqual(result.end, 0x84)
        try await expectTheOldApplicationBoots(version: 0x0001_0001, file: Array(file), "an unknown tag before program data")
    }

    func testProgramDataAtAddressZeroIsRefusedBeforeItIsWritten() async throws {
        let file = GBLBuilder(version: 0x0002_0000, programAddress: 0).build(program: (0..<600).map { UInt8(truncatingIfNeeded: $0) })
        try makeDevice("&app-start=0x6000")
        let result = try await upload(file)
        XCTAssertEqual(result.data, 0x87, "it would write over the bootloader and the AppLoader")
        XCTAssertEqual(result.end, 0x87)
        try await expectTheOldApplicationBoots(version: 0x0001_0001, file: file, "program data at 0")

        try makeDevice("&app-start=0x6000")
        let normal = GBLBuilder(version: 0x0002_0000).build(program: (0..<600).map { UInt8(truncatingIfNeeded: $0) })
        let accepted = try await upload(normal)
        XCTAssertNil(accepted.data, "at the application base 0x6000: taken")
        XCTAssertNil(accepted.end)
    }

    func testAnUnmetVersionDependencyIsRefusedBeforeProgramData() async throws {
        let file = try sample("app-dependency.gbl")  // application version >= 1 (commander --dep-app geq:1)
        try makeDevice("&version-dependency=checked&app-version=0")
        let result = try await upload(file)
        XCTAssertEqual(result.data, 0x84, "application version 0 is not >= 1")
        XCTAssertEqual(result.end, 0x84)
        try await expectTheOldApplicationBoots(version: 0, file: file, "an unmet version dependency")

        try makeDevice("&version-dependency=checked")
        let met = try await upload(file)
        XCTAssertNil(met.data, "0x00010001 >= 1: met")
        XCTAssertNil(met.end)
    }

    func testVersionDependencyStatementsAsTheGeckoParserEvaluatesThem() {
        func statement(_ type: UInt8, _ statement: UInt8, _ version: UInt32) -> [UInt8] {
            [type, statement, 0, 0] + SilabsOTADevice.u32(version)
        }
        let versions: (application: UInt32?, bootloader: UInt32) = (0x0001_0002, 0x0204_0000)
        XCTAssertTrue(AppLoaderGBLParser.dependenciesMet(statement(1, 0x06, 0x0001_0002), versions), "GEQ")
        XCTAssertFalse(AppLoaderGBLParser.dependenciesMet(statement(1, 0x08, 0x0001_0002), versions), "GT")
        XCTAssertTrue(AppLoaderGBLParser.dependenciesMet(statement(1, 0x09, 0x0001_0002), versions), "not GT")
        XCTAssertTrue(AppLoaderGBLParser.dependenciesMet(statement(2, 0x04, 0x0204_0000), versions), "bootloader EQ")
        XCTAssertFalse(AppLoaderGBLParser.dependenciesMet(statement(1, 0x00, 1) + statement(1, 0x04, 0x0001_0002), versions),
                       "LT AND EQ")
        XCTAssertTrue(AppLoaderGBLParser.dependenciesMet(statement(1, 0x00, 1) + statement(1, 0x24, 0x0001_0002), versions),
                      "LT OR EQ")
        XCTAssertFalse(AppLoaderGBLParser.dependenciesMet(statement(1, 0x06, 0), (nil, 0x0204_0000)), "no valid application")
        XCTAssertFalse(AppLoaderGBLParser.dependenciesMet(statement(3, 0x06, 0), versions), "SE: not on this part")
        XCTAssertFalse(AppLoaderGBLParser.dependenciesMet(statement(1, 0x0A, 0), versions), "no such operator")
    }

    func testTheKeysAreCheckedAndBelongToSilabsOTA() throws {
        let configuration = try SimulatorConfiguration(
            parsing: "silabs-ota?app-version=65538&end-answer=lost&compression=refused&app-start=0x6000&version-dependency=checked")
        XCTAssertEqual(configuration.silabsOTA.applicationVersion, 0x0001_0002)
        XCTAssertEqual(configuration.silabsOTA.endAnswer, .lost)
        XCTAssertFalse(configuration.silabsOTA.acceptsCompression)
        XCTAssertEqual(configuration.silabsOTA.applicationStart, 0x6000)
        XCTAssertTrue(configuration.silabsOTA.checksVersionDependencies)
        XCTAssertThrowsError(try SimulatorConfiguration(parsing: "silabs-ota?app-version=0x1G")) { error in
            XCTAssertTrue("\(error)".contains("app-version must be a 32-bit number"), "\(error)")
        }
        XCTAssertThrowsError(try SimulatorConfiguration(parsing: "silabs-ota?compression=lz4"))
        XCTAssertThrowsError(try SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(parsing: "ti-oad?end-answer=lost"))) { error in
            XCTAssertTrue("\(error)".contains("end-answer applies to sim:silabs-ota only"), "\(error)")
        }
    }
}
