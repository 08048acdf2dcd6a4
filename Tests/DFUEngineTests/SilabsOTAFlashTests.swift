@testable import DFUEngine
import DFUPackage
import DFUProfile
import DFUSimulator
import XCTest

/// End to end: profiles/silabs-ota.yaml, run by the engine, against `sim:silabs-ota` (the
/// in-place OTA DFU application and the AppLoader), with GBL files made by Simplicity Commander
/// (firmware-samples/silabs) and by `GBLBuilder` for every size boundary.
final class SilabsOTAFlashTests: XCTestCase {
    private static let samples = EngineTestSupport.repositoryRoot.appendingPathComponent("firmware-samples/silabs")

    private func profile(resumeAttempts: Int? = nil) throws -> Profile {
        let path = EngineTestSupport.repositoryRoot.appendingPathComponent("profiles/silabs-ota.yaml").path
        guard let resumeAttempts else { return try ProfileLoader.load(path: path) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: "  attempts: 3\n", with: "  attempts: \(resumeAttempts)\n")
        return try ProfileLoader.load(text: text, path: path)
    }

    /// A GBL file as the CLI hands it to the engine: the whole file, with `image.info`.
    private func image(_ bytes: [UInt8], name: String = "sample.gbl") throws -> FlashImage {
        let read = try GBLImageFormat.read(bytes, path: name)
        var image = FlashImage(name: "application", version: read.version, data: bytes)
        image.info = read.values
        return image
    }

    private func sample(_ name: String) throws -> FlashImage {
        try image([UInt8](Data(contentsOf: Self.samples.appendingPathComponent(name))), name: name)
    }

    private func flash(_ image: FlashImage, device: String = "silabs-ota", profile: Profile? = nil,
                       parameters: [String: ParameterValue] = [:]) async throws -> (FlashReport, SilabsOTADevice) {
        let world = try SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(parsing: device))
        let report = await FlashSession(profile: try profile ?? self.profile(), images: [image], transport: world,
                                        address: nil, options: FlashOptions(parameters: parameters)).run()
        return (report, try XCTUnwrap(world.peripherals.first as? SilabsOTADevice))
    }

    /// The device runs exactly `image` as its application, in application mode.
    private func assertInstalled(_ device: SilabsOTADevice, _ image: FlashImage, _ context: String,
                                 file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(device.mode, .application, context, file: file, line: line)
        XCTAssertTrue(device.application?.gbl == image.data, "\(context): the device holds exactly the file", file: file, line: line)
        XCTAssertEqual(device.application?.version, image.info["app_version"].map { UInt32($0) }, context, file: file, line: line)
    }

    func testCommanderFilesFlashVerifiedAtSeveralMTUs() async throws {
        for name in ["app-plain.gbl", "app-metadata.gbl", "app-signed.gbl", "app-dependency.gbl", "app-version-3.gbl"] {
            for mtu in [23, 64, 247] {
                let gbl = try sample(name)
                let (report, device) = try await flash(gbl, device: "silabs-ota?mtu=\(mtu)")
                XCTAssertEqual(report.status, .verified, "\(name) mtu \(mtu): \(String(describing: report.error))")
                XCTAssertEqual(report.deviceHolds, [.installed])
                XCTAssertEqual(report.phasesDone, ["upload", "verify", "boot"])
                assertInstalled(device, gbl, "\(name) mtu \(mtu)")
                XCTAssertEqual(device.controlLog, ["enter_ota: success", "begin: success", "end: success"])
                XCTAssertEqual(device.rebootCount, 2, "into the AppLoader, then into the new application")
            }
        }
    }

    /// File sizes around every multiple of ATT_MTU - 3, and the smallest files (one byte and no
    /// byte of program data), unpadded so that every size occurs; writes with and without response.
    func testSizesAcrossEveryBoundaryAtSeveralMTUs() async throws {
        for mtu in [23, 64, 185, 247] {
            let payload = mtu - 3
            var sizes: Set<Int> = [GBLBuilder.overhead, GBLBuilder.overhead + 1]
            for multiple in [1, 2, 7] {
                let boundary = payload * multiple
                for size in [boundary - 1, boundary, boundary + 1] where size >= GBLBuilder.overhead { sizes.insert(size) }
            }
            sizes.insert(payload * 40 + 3)
            for size in sizes.sorted() {
                var builder = GBLBuilder(version: UInt32(size))
                builder.padsToWord = false
                let program = (0..<(size - GBLBuilder.overhead)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ size) }
                let gbl = try image(builder.build(program: program))
                XCTAssertEqual(gbl.data.count, size)
                let withResponse = size % 2 == 0
                let (report, device) = try await flash(gbl, device: "silabs-ota?mtu=\(mtu)",
                                                       parameters: ["data_with_response": .integer(withResponse ? 1 : 0)])
                XCTAssertEqual(report.status, .verified, "size \(size) mtu \(mtu): \(String(describing: report.error))")
                assertInstalled(device, gbl, "size \(size) mtu \(mtu)")
            }
        }
    }

    /// A file whose end-tag CRC does not match (the damage the CLI refuses before upload, sent
    /// anyway): the AppLoader answers 0x03 with ATT error 0x80; the previous application is
    /// overwritten and the device stays in the AppLoader, as the report says.
    func testABadCRCIsRefusedAtTheEndAndTheDeviceStaysInTheAppLoader() async throws {
        let damaged = try sample("app-bad-crc.gbl")
        let (report, device) = try await flash(damaged)
        XCTAssertEqual(report.status, .failed)
        let error = try XCTUnwrap(report.error)
        // The refusal is named, and where the device came back (the AppLoader) says what it holds.
        XCTAssertTrue(error.message.contains("status 0x80 (crc-error): CRC check failed")
                          && error.message.contains("came back in the AppLoader"), error.message)
        XCTAssertEqual(report.deviceHolds, [.overwritten])
        XCTAssertTrue(error.deviceState?.contains("the device no longer has its previous firmware") ?? false,
                      String(describing: error.deviceState))
        XCTAssertEqual(device.controlLog, ["enter_ota: success", "begin: success", "end: ATT error 0x80"])
        XCTAssertEqual(report.resumes, 0, "a refusal is not a lost link")
        XCTAssertFalse(report.resumes > 0, "a refusal is not a lost link")
        // The session ended: the AppLoader reset and came back in the AppLoader (no valid application).
        XCTAssertNil(device.application)
        XCTAssertEqual(device.mode, .appLoader)
        XCTAssertEqual(device.stage(of: TargetFirmware(bytes: damaged.data)).stage, .overwritten)
    }

    /// With writes with response the AppLoader refuses the write that completes the bad end tag.
    func testABadCRCWithWritesWithResponseIsRefusedOnTheDataWrite() async throws {
        let damaged = try sample("app-bad-crc.gbl")
        let (report, device) = try await flash(damaged, parameters: ["data_with_response": .integer(1)])
        XCTAssertEqual(report.status, .failed)
        let message = report.error?.message ?? ""
        XCTAssertTrue(message.contains("ATT error 0x80") && message.contains("a write to 'data'"), message)
        XCTAssertTrue(report.deviceHolds.contains(.overwritten), "\(report.deviceHolds)")
        XCTAssertNil(device.application)
    }

    func testNotAGBLFileIsRefusedAsNotSupported() async throws {
        var builder = GBLBuilder(version: 1)
        builder.padsToWord = false
        var bytes = builder.build(program: Array(repeating: 0x11, count: 300))
        bytes[0] = 0x00  // not the header tag
        let (report, device) = try await flash(FlashImage(name: "application", version: "", data: bytes))
        XCTAssertEqual(report.status, .failed)
        XCTAssertTrue(report.error?.message.contains("status 0x84 (not-supported)") ?? false, String(describing: report.error))
        XCTAssertTrue(report.error?.message.contains("before writing any program data") ?? false, String(describing: report.error))
        // The device came back as its application: the report says it still runs it.
        XCTAssertEqual(report.deviceHolds, [.unchanged])
        XCTAssertEqual(device.application?.version, 0x0001_0001, "nothing was programmed: the old application boots")
        XCTAssertEqual(device.mode, .application)
    }

    /// A file intact to a reader but with a tag the AppLoader does not know: refused at 0x03
    /// (0x84) after its program data overwrote the application; report and device agree.
    func testAnUnknownTagIsRefusedByTheAppLoaderAfterOverwriting() async throws {
        let gbl = try sample("app-unknown-tag.gbl")
        let (report, device) = try await flash(gbl)
        XCTAssertEqual(report.status, .failed)
        XCTAssertTrue(report.error?.message.contains("status 0x84 (not-supported)") ?? false, String(describing: report.error))
        XCTAssertEqual(report.deviceHolds, [.overwritten])
        XCTAssertNil(device.application)
        XCTAssertEqual(device.mode, .appLoader)
    }

    /// A lost link mid-transfer resets the device into the AppLoader (the application is already
    /// overwritten); the procedure runs again and the upload starts over from byte 0.
    func testADisconnectMidTransferRestartsTheUploadFromZero() async throws {
        let gbl = try sample("app-plain.gbl")
        for (cut, mtu) in [(3000, 247), (700, 23), (5990, 64)] {
            let (report, device) = try await flash(gbl, device: "silabs-ota?mtu=\(mtu)&fault=disconnect-after:\(cut + 1)")
            XCTAssertEqual(report.status, .verified, "cut \(cut): \(String(describing: report.error))")
            XCTAssertEqual(report.resumes, 1)
            assertInstalled(device, gbl, "cut \(cut)")
            XCTAssertEqual(device.controlLog, ["enter_ota: success", "begin: success", "begin: success", "end: success"],
                           "the second AppLoader boot begins again (its parser takes nothing but a GBL header "
                               + "first); no enter_ota: it came back in the AppLoader")
        }
    }

    /// A link lost before any program data: the application is untouched and boots again; the
    /// procedure asks it into the AppLoader once more.
    func testADisconnectBeforeProgramDataBootsTheOldApplicationAgain() async throws {
        let gbl = try sample("app-plain.gbl")
        let (report, device) = try await flash(gbl, device: "silabs-ota?mtu=23&fault=disconnect-after:41")
        XCTAssertEqual(report.status, .verified, String(describing: report.error))
        XCTAssertEqual(device.controlLog, ["enter_ota: success", "begin: success", "enter_ota: success", "begin: success",
                                           "end: success"])
        assertInstalled(device, gbl, "cut in the header tags")
    }

    /// Without resume attempts a lost link fails, and the report says the device may be
    /// overwritten: it is (it waits in the AppLoader).
    func testADisconnectWithoutResumeFailsSayingWhatTheDeviceHolds() async throws {
        let gbl = try sample("app-plain.gbl")
        let (report, device) = try await flash(gbl, device: "silabs-ota?fault=disconnect-after:3001",
                                               profile: try profile(resumeAttempts: 0))
        XCTAssertEqual(report.status, .failed)
        XCTAssertTrue(report.deviceHolds.contains(.overwritten), "\(report.deviceHolds)")
        XCTAssertNil(device.application, "the AppLoader overwrote the application")
        XCTAssertEqual(device.stage(of: TargetFirmware(bytes: gbl.data)).stage, .overwritten)
    }

    /// The answer to 0x03 lost after the AppLoader verified the image: the link loss resets the
    /// device into the new application. The resumed procedure asks the application's version
    /// first, finds the GBL's (another than before) and sends nothing again: ending completed (the
    /// AppLoader's answer, its check of the image, never came; the application running shows it
    /// passed), installed, with the device asked into the AppLoader only once.
    func testALostAnswerToTheEndIsResolvedByAskingTheDevice() async throws {
        let gbl = try sample("app-plain.gbl")
        let (report, device) = try await flash(gbl, device: "silabs-ota?fault=disconnect-after-command:end")
        XCTAssertEqual(report.status, .completed, String(describing: report.error))
        XCTAssertEqual(report.resumes, 1)
        XCTAssertEqual(report.deviceHolds, [.installed])
        XCTAssertTrue(report.evidence?.contains("already completed phase 'boot'") ?? false, "\(report.evidence ?? "")")
        assertInstalled(device, gbl, "lost end answer")
        XCTAssertEqual(device.controlLog.filter { $0 == "enter_ota: success" }.count, 1,
                       "the device rebooted into the new application and was not asked into the AppLoader again")
    }

    /// OTA Data goes without response into 24 transmit buffers: a transfer counted when the writes
    /// were queued read 202 kB/s on a 1M PHY, more than its 125 kB/s of raw bits. The transfer
    /// ends when the link carried the last write, so its rate stays under what the PHY carries.
    func testTheTransferRateCountsBytesTheLinkCarriedNotBytesQueued() async throws {
        let gbl = try sample("app-plain.gbl")
        let (report, _) = try await flash(gbl, device: "silabs-ota?buffers=24&phy=1M")
        XCTAssertEqual(report.status, .verified, String(describing: report.error))
        let seconds = try XCTUnwrap(report.transferSeconds)
        let rate = Double(report.bytes) / seconds
        XCTAssertLessThan(rate, 125_000, "\(report.bytes) bytes in \(seconds) s")
        XCTAssertGreaterThan(rate, 10_000, "\(report.bytes) bytes in \(seconds) s")
    }

    /// The application closes the link itself about a second after the OTA Control write, then
    /// resets into the AppLoader, which advertises "OTA" on the same address.
    func testEnteringOTAModeWaitsForTheApplicationToCloseTheLink() async throws {
        var events: [String] = []
        let world = try SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(parsing: "silabs-ota"))
        let report = await FlashSession(profile: try profile(), images: [try sample("app-plain.gbl")], transport: world,
                                        address: nil, onEvent: { events.append("\($0)") }).run()
        XCTAssertEqual(report.status, .verified)
        let device = try XCTUnwrap(world.peripherals.first as? SilabsOTADevice)
        XCTAssertEqual(report.address, device.address.description, "the AppLoader advertises on the application's address")
        XCTAssertGreaterThanOrEqual(report.seconds, 2.0, "1 s until the application closes the link, 0.5 s boots twice")
    }
}
