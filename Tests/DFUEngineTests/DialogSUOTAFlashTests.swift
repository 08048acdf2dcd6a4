import DFUEngine
import DFUPackage
import DFUProfile
import DFUSimulator
import Foundation
import XCTest

/// End to end: profiles/dialog-suota.yaml, run by the engine, against `sim:dialog-suota` (Dialog's
/// SDK 6 receiver and secondary bootloader), with the images firmware-samples/make-suota-samples.py
/// writes: updates that end with the device running the image, the device's refusals reported as
/// failed with what it still runs, and lost links (the upload starts over; no resume).
final class DialogSUOTAFlashTests: XCTestCase {
    private static let samples = EngineTestSupport.repositoryRoot.appendingPathComponent("firmware-samples/dialog")
    private static let profilePath = EngineTestSupport.repositoryRoot.appendingPathComponent("profiles/dialog-suota.yaml").path

    private func profile() throws -> Profile { try ProfileLoader.load(path: Self.profilePath) }

    /// The profile with `original` replaced (a client that sends something else).
    private func profile(replacing original: String, with replacement: String) throws -> Profile {
        let text = try String(contentsOfFile: Self.profilePath, encoding: .utf8)
        XCTAssertTrue(text.contains(original), original)
        return try ProfileLoader.load(text: text.replacingOccurrences(of: original, with: replacement), path: "variant.yaml")
    }

    private func sample(_ name: String) throws -> FlashImage {
        let package = try FirmwarePackage.open(path: Self.samples.appendingPathComponent(name).path)
        try package.requireIntact()
        let image = try XCTUnwrap(package.images.first)
        return FlashImage(name: image.name, version: image.version, data: image.data)
    }

    /// A `.img` file of `codeSize` bytes of seeded code, as mkimage lays it out.
    static func image(codeSize: Int, version: String = "1.2.0", timestamp: UInt32 = 1_720_000_000, seed: UInt64 = 3) -> FlashImage {
        var state = seed
        let code = (0..<codeSize).map { _ -> UInt8 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        let file = SUOTAImageHeader(code: code, version: version, timestamp: timestamp).encoded + code
        return FlashImage(name: "application", version: version, data: file)
    }

    private func flash(_ image: FlashImage, device query: String = "dialog-suota", profile: Profile? = nil,
                       parameters: [String: ParameterValue] = [:],
                       world existing: SimulatedWorld? = nil) async throws -> (FlashReport, DialogSUOTADevice, SimulatedWorld) {
        let world = try existing ?? SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(parsing: query))
        let report = await FlashSession(profile: try profile ?? self.profile(), images: [image], transport: world, address: nil,
                                        options: FlashOptions(parameters: parameters)).run()
        return (report, try XCTUnwrap(world.peripherals.first as? DialogSUOTADevice), world)
    }

    // MARK: - Updates

    func testTheSampleIsVerifiedAndTheDeviceRunsItAfterItsReboot() async throws {
        let image = try sample("app-v2.img")
        let (report, device, world) = try await flash(image, device: "dialog-suota?mtu=247")
        XCTAssertEqual(report.status, .verified, String(describing: report.error))
        // Nothing the device reports shows which image its bootloader started.
        XCTAssertEqual(report.deviceHolds, [.unchanged, .pending, .installed])
        XCTAssertEqual(report.bytes, 12_409)
        await world.sleep(until: world.now + .seconds(2))
        XCTAssertEqual(device.runningImage, image.data, "the bootloader runs the new image")
        XCTAssertEqual(device.runningBank, 1)
        XCTAssertEqual(device.validBanks, [true, true])
        XCTAssertEqual(device.rebootCount, 1)
        XCTAssertEqual(device.stage(of: TargetFirmware(bytes: image.data)).stage, .installed)
    }

    /// The profile sends the file and its XOR byte; progress is of the image and never passes
    /// its end (it read 12,410/12,409), and the XOR byte is not counted as an image byte.
    func testProgressNeverPassesTheImageAndTheChecksumByteIsNotCounted() async throws {
        let image = try sample("app-v2.img")
        let world = try SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(parsing: "dialog-suota?mtu=247"))
        nonisolated(unsafe) var seen: [(done: Int, total: Int)] = []
        let report = await FlashSession(profile: try profile(), images: [image], transport: world, address: nil,
                                        onEvent: { event in
                                            if case let .progress(_, done, total, _) = event { seen.append((done, total)) }
                                        }).run()
        XCTAssertEqual(report.status, .verified, String(describing: report.error))
        XCTAssertFalse(seen.isEmpty)
        XCTAssertTrue(seen.allSatisfy { $0.total == image.data.count && $0.done <= $0.total }, "\(seen)")
        XCTAssertEqual(seen.last?.done, image.data.count)
        XCTAssertEqual(report.bytes, image.data.count)
    }

    func testTheNextUpdateReplacesTheOlderBank() async throws {
        let first = try sample("app-v1.img")
        let second = try sample("app-v2.img")
        let (report1, device, world) = try await flash(first)
        XCTAssertEqual(report1.status, .verified, String(describing: report1.error))
        await world.sleep(until: world.now + .seconds(2))
        let (report2, _, _) = try await flash(second, world: world)
        XCTAssertEqual(report2.status, .verified, String(describing: report2.error))
        await world.sleep(until: world.now + .seconds(2))
        XCTAssertEqual(device.runningImage, second.data)
        XCTAssertEqual(device.runningBank, 0, "the factory image's bank was the older one")
        XCTAssertEqual(device.bankFiles[1], first.data, "the previous update stays in the other bank")
        XCTAssertEqual(device.bankImageIDs, [2, 1])
    }

    /// Every PATCH_DATA write is min(PATCH_DATA_CHAR_SIZE, MTU - 3) bytes, as the SUOTA apps
    /// size them: 20 at MTU 23, 244 (the device's characteristic size) at MTU 517.
    func testWritesAreSizedByTheDevicesPatchDataSizeAndTheMTU() async throws {
        for (mtu, expected) in [(23, 20), (185, 182), (517, 244)] {
            let (report, device, _) = try await flash(try sample("app-v1.img"), device: "dialog-suota?mtu=\(mtu)")
            XCTAssertEqual(report.status, .verified, "mtu \(mtu): \(String(describing: report.error))")
            let writes = device.receivedCommands.filter { $0 == ["patch_data"] }.count
            // 5065 bytes in 240-byte blocks: 21 blocks of 240 and one of 25.
            let perBlock = (240 + expected - 1) / expected
            XCTAssertEqual(writes, 21 * perBlock + (25 + expected - 1) / expected, "mtu \(mtu)")
        }
    }

    // MARK: - Refusals: failed, with what the device still runs

    private func assertRefused(_ report: FlashReport, _ device: DialogSUOTADevice, naming code: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(report.status, .failed, file: file, line: line)
        let message = report.error.map { "\($0)" } ?? ""
        XCTAssertTrue(message.contains(code), message, file: file, line: line)
        XCTAssertEqual(report.deviceHolds, [.unchanged], file: file, line: line)
        XCTAssertEqual(device.runningBank, 0, "the factory image still runs", file: file, line: line)
        XCTAssertEqual(device.nextBootBank, 0, "and still boots", file: file, line: line)
        XCTAssertEqual(device.rebootCount, 0, file: file, line: line)
    }

    func testABlockLargerThanTheDevicesBufferIsRefused() async throws {
        let (report, device, _) = try await flash(try sample("app-v1.img"), parameters: ["block_size": .integer(600)])
        assertRefused(report, device, naming: "int-mem-err")
        XCTAssertTrue("\(report.error!)".contains("lower block_size"), "\(report.error!)")
    }

    func testABlockSmallerThanTheHeaderIsRefusedBeforeAnythingIsSent() async throws {
        let (report, device, _) = try await flash(try sample("app-v1.img"), parameters: ["block_size": .integer(63)])
        XCTAssertEqual(report.status, .failed)
        XCTAssertTrue("\(report.error!)".contains("block_size must be at least 64"), "\(report.error!)")
        XCTAssertEqual(device.receivedCommands, [], "nothing reached the device")
    }

    func testMemoryDeviceRefusals() async throws {
        let (badBank, device1, _) = try await flash(try sample("app-v1.img"), parameters: ["image_bank": .integer(3)])
        assertRefused(badBank, device1, naming: "inval-img-bank")
        let (ram, device2, _) = try await flash(try sample("app-v1.img"), parameters: ["memory_type": .integer(0x10)])
        assertRefused(ram, device2, naming: "inval-mem-type")
    }

    /// A valid image whose code does not fit the device's bank (44,992 bytes here): only the
    /// device can tell, from its product header, at the first block.
    func testAnImageTooLargeForTheBankIsRefusedAtTheFirstBlock() async throws {
        let (report, device, _) = try await flash(Self.image(codeSize: 45_000), device: "dialog-suota?mtu=23")
        assertRefused(report, device, naming: "inval-img-size")
        XCTAssertEqual(device.receivedCommands.filter { $0 == ["patch_data"] }.count, 12,
                       "one 240-byte block, once: inval-img-size is marked retryable: false, the retry block does not send it again")
        XCTAssertTrue(report.error?.message.contains("not retried: the device refused for good") == true,
                      String(describing: report.error))
    }

    func testAnImageAlreadyInTheChosenBankIsRefused() async throws {
        let image = try sample("app-v1.img")
        let world = try SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(parsing: "dialog-suota"))
        let device = try XCTUnwrap(world.peripherals.first as? DialogSUOTADevice)
        device.program(bank: 1, file: image.data, imageID: 0)  // valid, but not newer than the factory image
        let (report, _, _) = try await flash(image, parameters: ["image_bank": .integer(2)], world: world)
        assertRefused(report, device, naming: "same-img-err")
        XCTAssertEqual(device.stage(of: TargetFirmware(bytes: image.data)).stage, .received)
    }

    /// The device checks the XOR of everything it received at the end: a client whose checksum
    /// byte is wrong (a profile variant) gets CRC_ERR and the bank stays invalid.
    func testAWrongChecksumByteIsRefusedAtTheEnd() async throws {
        let variant = try profile(replacing: "u8(xor8(image.data))", with: "u8((xor8(image.data) + 1) % 256)")
        let image = try sample("app-v1.img")
        let (report, device, _) = try await flash(image, profile: variant)
        assertRefused(report, device, naming: "crc-err")
        XCTAssertEqual(device.validBanks, [true, false])
        XCTAssertEqual(device.stage(of: TargetFirmware(bytes: image.data)).stage, .unchanged)
    }

    /// `busy:N`: a flash write fails mid-transfer (EXT_MEM_WRITE_ERR). The upload starts over
    /// once; a second failure is reported.
    func testAFailedFlashWriteStartsTheUploadOverOnceThenIsReported() async throws {
        let image = try sample("app-v1.img")
        let (recovered, device1, _) = try await flash(image, device: "dialog-suota?mtu=23&fault=busy:5")
        XCTAssertEqual(recovered.status, .verified, String(describing: recovered.error))
        XCTAssertEqual(device1.receivedCommands.filter { $0 == ["memory_device"] }.count, 2)
        XCTAssertEqual(device1.runningImage, image.data)
        let (report, device2, _) = try await flash(image, device: "dialog-suota?mtu=23&fault=busy:5&fault=busy:10")
        assertRefused(report, device2, naming: "ext-mem-write-err")
    }

    /// Images the client-side checks would refuse, given to the engine directly: the device's
    /// own checks refuse them.
    func testEmptyAndHeaderlessDataAreRefusedByTheDevice() async throws {
        let empty = FlashImage(name: "application", version: "", data: [])
        let (report1, device1, _) = try await flash(empty)
        assertRefused(report1, device1, naming: "inval-img-hdr")
        let noCode = FlashImage(name: "application", version: "1", data: SUOTAImageHeader(code: [], version: "1", timestamp: 0).encoded)
        let (report2, device2, _) = try await flash(noCode)
        assertRefused(report2, device2, naming: "inval-img-size")
    }

    // MARK: - Lost links: the upload starts over, never resumed

    func testALinkLostMidTransferStartsTheUploadOver() async throws {
        let image = try sample("app-v2.img")
        for cut in [600, 5000, 12_000] {
            let (report, device, world) = try await flash(image, device: "dialog-suota?mtu=185&fault=disconnect-after:\(cut)")
            XCTAssertEqual(report.status, .verified, "cut at \(cut): \(String(describing: report.error))")
            XCTAssertEqual(report.resumes, 1, "cut at \(cut)")
            let starts = device.receivedCommands.filter { $0 == ["memory_device"] }.count
            XCTAssertEqual(starts, 2, "cut at \(cut): MEM_DEV again, no offset to resume from")
            await world.sleep(until: world.now + .seconds(2))
            XCTAssertEqual(device.runningImage, image.data, "cut at \(cut)")
        }
    }

    func testAPowerGlitchMidTransferLosesTheSessionAndTheUploadStartsOver() async throws {
        let image = try sample("app-v2.img")
        let (report, device, world) = try await flash(image, device: "dialog-suota?fault=reboot-after:7000")
        XCTAssertEqual(report.status, .verified, String(describing: report.error))
        XCTAssertGreaterThanOrEqual(report.resumes, 1)
        await world.sleep(until: world.now + .seconds(2))
        XCTAssertEqual(device.runningImage, image.data)
    }

    /// The end command processed, its answer lost: the image is valid on the device, but the
    /// client cannot know; it uploads again (into the other bank) and ends verified.
    func testALostAnswerToTheEndCommandIsUploadedAgain() async throws {
        let image = try sample("app-v1.img")
        let (report, device, world) = try await flash(image, device: "dialog-suota?fault=disconnect-after-command:end")
        XCTAssertEqual(report.status, .verified, String(describing: report.error))
        XCTAssertEqual(report.resumes, 1)
        await world.sleep(until: world.now + .seconds(2))
        XCTAssertEqual(device.runningImage, image.data)
        XCTAssertEqual(device.bankFiles, [image.data, image.data], "both banks hold it now")
    }

    /// The reboot command never reached the device: the image is valid and boots at the next
    /// reset, which the report says; the reboot is not sent again (whether it happened cannot
    /// be asked).
    func testALinkLostBeforeTheRebootReportsTheImagePending() async throws {
        let image = try sample("app-v1.img")
        let (report, device, _) = try await flash(image, device: "dialog-suota?fault=disconnect-on:reboot")
        XCTAssertEqual(report.status, .failed)
        XCTAssertTrue(report.deviceHolds.contains(.pending), "\(report.deviceHolds)")
        XCTAssertEqual(device.stage(of: TargetFirmware(bytes: image.data)).stage, .pending)
        XCTAssertEqual(device.rebootCount, 0)
    }

    func testALinkLostRightAfterTheRebootRequestLeavesTheDeviceRunningTheImage() async throws {
        let image = try sample("app-v1.img")
        let (report, device, world) = try await flash(image, device: "dialog-suota?fault=disconnect-after-command:reboot")
        XCTAssertEqual(report.status, .failed)
        XCTAssertTrue(report.deviceHolds.contains(.installed), "\(report.deviceHolds)")
        await world.sleep(until: world.now + .seconds(2))
        XCTAssertEqual(device.runningImage, image.data, "the device reset once the link was down")
    }
}
