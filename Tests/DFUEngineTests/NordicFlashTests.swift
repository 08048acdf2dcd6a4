import DFUEngine
import DFUGATT
import DFUPackage
import DFUProfile
import DFUSimulator
import XCTest

/// End to end: the Nordic profiles, run by the engine, against the simulated bootloaders, with
/// packages made by nrfutil and adafruit-nrfutil (firmware-samples/nordic).
final class NordicFlashTests: XCTestCase {
    private static let samples = EngineTestSupport.repositoryRoot.appendingPathComponent("firmware-samples/nordic")

    private func profile(_ name: String) throws -> Profile {
        try ProfileLoader.load(path: EngineTestSupport.repositoryRoot.appendingPathComponent("profiles/\(name).yaml").path)
    }

    private func images(_ package: String) throws -> [FlashImage] {
        let opened = try FirmwarePackage.open(path: Self.samples.appendingPathComponent(package).path)
        try opened.requireIntact()
        return opened.images.map {
            FlashImage(name: $0.name, version: $0.version, data: $0.data, initPacket: $0.initPacket ?? [],
                       softDeviceSize: $0.softDeviceSize, bootloaderSize: $0.bootloaderSize,
                       applicationSize: $0.applicationSize)
        }
    }

    private func flash(_ images: [FlashImage], profile: Profile, device: String,
                       options: FlashOptions = FlashOptions()) async throws -> (FlashReport, any SimulatedPeripheral) {
        let world = try SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(parsing: device))
        let report = await FlashSession(profile: profile, images: images, transport: world, address: nil,
                                        options: options).run()
        return (report, world.peripherals[0])
    }

    private func secure(_ peripheral: any SimulatedPeripheral) throws -> NordicSecureDFUDevice {
        try XCTUnwrap(peripheral as? NordicSecureDFUDevice)
    }

    func testUnsignedApplicationIsFlashedAndVerified() async throws {
        let app = try images("app-unsigned.zip")
        let (report, device) = try await flash(app, profile: try profile("nordic-secure-dfu"), device: "nordic-secure-dfu")
        XCTAssertEqual(report.status, .verified, String(describing: report.error))
        XCTAssertTrue(try secure(device).installed.map(\.data) == [app[0].data], "the device holds exactly the image")
    }

    /// The firmware's progress comes from the object loop and from the stream inside it: one
    /// sequence, so the image is counted once (it was counted twice: 2 x the image).
    func testNestedProgressCountsTheImageOnce() async throws {
        let app = try images("app-unsigned.zip")
        let (report, _) = try await flash(app, profile: try profile("nordic-secure-dfu"), device: "nordic-secure-dfu")
        XCTAssertEqual(report.status, .verified, String(describing: report.error))
        XCTAssertEqual(report.bytes, app[0].data.count)
        XCTAssertEqual(report.bytesAlreadyOnDevice, 0)
    }

    func testMultiImagePackageGoesInOrderWithAReconnectBetweenImages() async throws {
        let parts = try images("sd-bl-app-signed.zip")
        XCTAssertEqual(parts.map(\.name), ["softdevice_bootloader", "application"])
        let (report, device) = try await flash(parts, profile: try profile("nordic-secure-dfu"),
                                               device: "nordic-secure-dfu?mtu=185")
        XCTAssertEqual(report.status, .verified, String(describing: report.error))
        let installed = try secure(device).installed
        XCTAssertTrue(installed.map(\.data) == parts.map(\.data), "the device holds exactly the package's images")
        XCTAssertEqual(installed.map(\.type), [.softDeviceBootloader, .application])
    }

    func testPacketReceiptNotificationsAndPacketsWithResponseBothVerify() async throws {
        let app = try images("app-signed.zip")
        for options in [FlashOptions(parameters: ["prn": .integer(3)]),
                        FlashOptions(parameters: ["prn": .integer(12)], writeTypes: ["packet": .withResponse])] {
            let (report, device) = try await flash(app, profile: try profile("nordic-secure-dfu"),
                                                   device: "nordic-secure-dfu?mtu=23", options: options)
            XCTAssertEqual(report.status, .verified, "\(options): \(String(describing: report.error))")
            XCTAssertTrue(try secure(device).installed.map(\.data) == [app[0].data], "the device holds exactly the image")
        }
    }

    /// Disconnects at many pseudo-random offsets: every run ends verified with exactly the
    /// package's image installed, or with a clear error and nothing wrong installed.
    func testResumeAfterDisconnectsAtManyOffsets() async throws {
        let app = try images("app-unsigned.zip")
        var state: UInt64 = 42
        for _ in 0..<12 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let first = 200 + Int(state >> 40) % 24_000
            let second = first + 1 + Int(state >> 20 & 0xFFFF) % 9_000
            let mtu = [23, 64, 247][Int(state >> 8 % 3) % 3]
            let (report, device) = try await flash(
                app, profile: try profile("nordic-secure-dfu"),
                device: "nordic-secure-dfu?mtu=\(mtu)&fault=disconnect-after:\(first)&fault=disconnect-after:\(second)",
                options: FlashOptions(parameters: ["prn": .integer(UInt64(state >> 50 % 2) * 8)]))
            let installed = try secure(device).installed
            if report.status == .verified {
                XCTAssertTrue(installed.map(\.data) == [app[0].data], "cuts at \(first), \(second)")
                XCTAssertGreaterThanOrEqual(report.resumes, 1)
                // Resumed in the same command: every byte on the device was sent by it, some twice
                // (an object created again), never fewer than the image.
                XCTAssertGreaterThanOrEqual(report.bytes, app[0].data.count, "cuts at \(first), \(second)")
                XCTAssertLessThan(report.bytes, 2 * app[0].data.count, "cuts at \(first), \(second)")
            } else {
                XCTAssertTrue(installed.isEmpty, "a failed run must not leave another image installed")
                XCTAssertNotNil(report.error, "cuts at \(first), \(second)")
            }
            XCTAssertEqual(report.status, .verified, "cuts at \(first), \(second) mtu \(mtu): \(String(describing: report.error))")
        }
    }

    func testButtonlessEntryReconnectsToTheBootloaderOnAddressPlusOne() async throws {
        let app = try images("app-signed.zip")
        let (report, device) = try await flash(app, profile: try profile("nordic-secure-dfu"),
                                               device: "nordic-secure-dfu?buttonless=1")
        XCTAssertEqual(report.status, .verified, String(describing: report.error))
        let secureDevice = try secure(device)
        XCTAssertEqual(report.address, secureDevice.applicationAddress.adding(1).description)
        XCTAssertTrue(secureDevice.installed.map(\.data) == [app[0].data], "the device holds exactly the image")
    }

    func testBootloaderWithAKeyRefusesAnUnsignedInitPacketWithTheExtendedError() async throws {
        let key = Self.samples.appendingPathComponent("test-signing-key-THROWAWAY.pub.pem").path
        let unsigned = try images("app-unsigned.zip")
        let (refused, device) = try await flash(unsigned, profile: try profile("nordic-secure-dfu"),
                                                device: "nordic-secure-dfu?key=\(key)")
        XCTAssertEqual(refused.status, .failed)
        let message = refused.error?.description ?? ""
        XCTAssertTrue(message.contains("signature-missing"), message)
        XCTAssertTrue(try secure(device).installed.isEmpty)

        let signed = try images("app-signed.zip")
        let (accepted, _) = try await flash(signed, profile: try profile("nordic-secure-dfu"),
                                            device: "nordic-secure-dfu?key=\(key)")
        XCTAssertEqual(accepted.status, .verified, String(describing: accepted.error))

        let wrongKey = Self.samples.appendingPathComponent("wrong-key-THROWAWAY.pub.pem").path
        let (wrong, wrongDevice) = try await flash(signed, profile: try profile("nordic-secure-dfu"),
                                                   device: "nordic-secure-dfu?key=\(wrongKey)")
        XCTAssertEqual(wrong.status, .failed)
        // nrf_dfu_validation.c answers a signature that does not verify with INVALID_OBJECT.
        XCTAssertTrue((wrong.error?.description ?? "").contains("invalid-object"), String(describing: wrong.error))
        XCTAssertTrue(try secure(wrongDevice).installed.isEmpty)
    }

    /// A firmware that does not match its init packet's hash (pre-flight bypassed): the
    /// bootloader refuses it after the last object and nothing is installed.
    func testImageNotMatchingTheInitPacketIsRefusedByTheBootloader() async throws {
        var app = try images("app-unsigned.zip")[0]
        var data = app.data
        data[100] ^= 0xFF
        app = FlashImage(name: app.name, version: app.version, data: data, initPacket: app.initPacket,
                         applicationSize: app.applicationSize)
        let (report, device) = try await flash([app], profile: try profile("nordic-secure-dfu"), device: "nordic-secure-dfu")
        XCTAssertEqual(report.status, .failed)
        XCTAssertTrue(try secure(device).installed.isEmpty)
        XCTAssertNotNil(report.error)
    }

    func testLegacyPackageIsFlashedAndVerified() async throws {
        let app = try images("legacy-app.zip")
        let (report, device) = try await flash(app, profile: try profile("nordic-legacy-dfu"), device: "nordic-legacy-dfu")
        XCTAssertEqual(report.status, .verified, String(describing: report.error))
        let legacy = try XCTUnwrap(device as? NordicLegacyDFUDevice)
        XCTAssertTrue(legacy.installed.map(\.data) == [app[0].data], "the device holds exactly the image")
    }

    func testLegacyRestartsFromZeroAfterADisconnect() async throws {
        let app = try images("legacy-app.zip")
        let (report, device) = try await flash(app, profile: try profile("nordic-legacy-dfu"),
                                               device: "nordic-legacy-dfu?fault=disconnect-after:9000")
        XCTAssertEqual(report.status, .verified, String(describing: report.error))
        XCTAssertEqual(report.resumes, 1)
        let legacy = try XCTUnwrap(device as? NordicLegacyDFUDevice)
        XCTAssertTrue(legacy.installed.map(\.data) == [app[0].data], "the device holds exactly the image")
    }
}
