import DFUBytes
@testable import DFUEngine
import DFUPackage
import DFUProfile
import DFUSimulator
import XCTest

/// End to end: profiles/ti-oad.yaml run by the engine against `sim:ti-oad` (oad.c's state
/// machine): image sizes around every block boundary at several MTUs, a refused identify, a
/// CRC failure after the last block, a block request seen twice, a lost link; and the golden
/// bytes of every message the profile defines (oad.h's payloads).
final class TIOADFlashTests: XCTestCase {
    private func profile() throws -> Profile {
        try ProfileLoader.load(path: EngineTestSupport.repositoryRoot.appendingPathComponent("profiles/ti-oad.yaml").path)
    }

    /// An OAD image as oad_image_tool lays it out: the core header, a contiguous payload
    /// segment at byte 44 (start address 0), code, the CRC-32 of bytes 12 to the end.
    static func image(length: Int, imageID: String = "CC26x2R1", version: String = "0002", seed: UInt64 = 7) -> FlashImage {
        var header = TIOADImageHeader(imageID: imageID, softwareVersion: version, length: UInt32(length),
                                      endAddress: UInt32(length - 1))
        var writer = ByteWriter()
        writer.append(bytes: header.encoded)
        writer.append(bytes: [0x01, 0xFE, 0xFF, 0xFF])
        writer.append(UInt32(length - 44), endianness: .little)
        writer.append(UInt32(0), endianness: .little)
        var bytes = writer.bytes + EngineTestSupport.image(size: max(0, length - 56), seed: seed).data
        header.crc32 = TIOADImageHeader.crc(of: bytes, length: length) ?? 0
        bytes.replaceSubrange(0..<44, with: header.encoded)
        return FlashImage(name: "application", version: version, data: bytes)
    }

    private func flash(_ image: FlashImage, device: String = "ti-oad", profile: Profile? = nil) async throws -> (FlashReport, TIOADDevice) {
        let world = try SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(parsing: device))
        let report = await FlashSession(profile: try profile ?? self.profile(), images: [image], transport: world,
                                        address: nil).run()
        return (report, try XCTUnwrap(world.peripherals.first as? TIOADDevice))
    }

    /// The block size oad.c's OAD_setBlockSize gives an MTU, less the 4-byte block number.
    private func bytesPerBlock(mtu: Int) -> Int { min(max((mtu - 3) & ~3, 20), 244) - 4 }

    func testImagesAroundEveryBlockBoundaryAreServedOnceInOrderAndRun() async throws {
        for mtu in [25, 64, 100, 185, 247, 517] {
            let perBlock = bytesPerBlock(mtu: mtu)
            let headerBlocks = (56 + perBlock - 1) / perBlock
            var sizes: Set<Int> = [56, 57, 3 * (mtu - 3) - 1, 3 * (mtu - 3), 3 * (mtu - 3) + 1,
                                   headerBlocks * perBlock - 1, headerBlocks * perBlock, headerBlocks * perBlock + 1]
            for blocks in [1, 2, 5] {
                sizes.formUnion([blocks * perBlock - 1, blocks * perBlock, blocks * perBlock + 1])
            }
            for size in sizes.sorted() where size >= 56 {
                let image = Self.image(length: size, version: "0\(size % 10)\(mtu % 10)9")
                let (report, device) = try await flash(image, device: "ti-oad?mtu=\(mtu)")
                let context = "MTU \(mtu), \(size) bytes"
                XCTAssertEqual(report.status, .verified, "\(context): \(String(describing: report.error))")
                XCTAssertEqual(report.deviceHolds, [.installed], context)
                XCTAssertTrue(device.running == image.data, "\(context): the device runs exactly the image")
                let blocks = (size + perBlock - 1) / perBlock
                XCTAssertEqual(device.blockLog, Array(0..<blocks), "\(context): every block once, in order")
                XCTAssertEqual(device.stage(of: TargetFirmware(bytes: image.data)).stage, .installed, context)
            }
        }
    }

    /// At ATT_MTU 23 the identify would be cut in two writes, and oad.c would take the second
    /// as a new identify and cancel the OAD: refused before anything is sent.
    func testALinkTooSmallForTheIdentifyIsRefusedBeforeAnythingIsSent() async throws {
        let (report, device) = try await flash(Self.image(length: 500), device: "ti-oad?mtu=23")
        XCTAssertEqual(report.status, .failed)
        XCTAssertTrue(report.error?.message.hasPrefix("check: expected link.mtu >= 25 (the 22-byte Image Identify needs one ATT write") ?? false,
                      "\(String(describing: report.error))")
        XCTAssertTrue(device.receivedCommands.isEmpty, "nothing was sent")
    }

    func testTheSamplesFlashAndTheDeviceThenReportsTheirVersion() async throws {
        for (name, version) in [("oad-app-9604.bin", "0002"), ("oad-app-9596.bin", "0003"), ("oad-split-app-4800.bin", "0102")] {
            let package = try FirmwarePackage.open(path: EngineTestSupport.repositoryRoot
                .appendingPathComponent("firmware-samples/ti/\(name)").path)
            try package.requireIntact()
            let data = try XCTUnwrap(package.images.first).data
            let (report, device) = try await flash(FlashImage(name: "application", version: version, data: data),
                                                   device: "ti-oad?mtu=185")
            XCTAssertEqual(report.status, .verified, "\(name): \(String(describing: report.error))")
            XCTAssertEqual(String(decoding: device.running[32..<36], as: UTF8.self), version)
        }
    }

    func testAnImageForAnotherChipIsRefusedAtIdentifyAndTheDeviceKeepsItsFirmware() async throws {
        let image = Self.image(length: 2048, imageID: "CC13x2R1")
        let (report, device) = try await flash(image)
        XCTAssertEqual(report.status, .failed)
        XCTAssertEqual(report.error?.message, "send 'identify' failed: the device answered status 0xA (invalid-file): "
                       + "the image's imgID is not the one this device accepts (an image for another chip or product); "
                       + "not retried: the device refused for good, a retry gets the same answer (the profile marks "
                       + "'invalid-file' retryable: false)")
        XCTAssertEqual(report.deviceHolds, [.unchanged])
        XCTAssertEqual(report.error?.deviceState, "the device still runs its previous firmware")
        XCTAssertTrue(device.blockLog.isEmpty)
        XCTAssertEqual(device.running, TIOADDevice.factoryImage())

        // Built for another BIM version: INCOMPATIBLE_FILE.
        var other = Self.image(length: 2048).data
        other[12] = 2
        other.replaceSubrange(8..<12, with: Self.littleEndian(TIOADImageHeader.crc(of: other, length: 2048) ?? 0))
        let (refused, _) = try await flash(FlashImage(name: "application", version: "0002", data: other))
        XCTAssertTrue(refused.error?.message.contains("status 0xB (incompatible-file)") ?? false, "\(String(describing: refused.error))")
        XCTAssertEqual(refused.deviceHolds, [.unchanged])
    }

    func testACRCFailureAfterTheLastBlockIsReportedWithTheDeviceUnchanged() async throws {
        let image = Self.image(length: 3000)
        let (report, device) = try await flash(image, device: "ti-oad?mtu=247&corrupt-block=3")
        XCTAssertEqual(report.status, .failed)
        let message = report.error?.message ?? ""
        XCTAssertTrue(message.hasPrefix("check: expected block_status.status == 14 (the device did not take the image"), message)
        XCTAssertTrue(message.hasSuffix("block_status.status = 1)"), message)
        XCTAssertEqual(report.deviceHolds, [.unchanged])
        XCTAssertTrue(device.isOADIdle, "oad.c resets its OAD after CRC_ERR")
        XCTAssertEqual(device.running, TIOADDevice.factoryImage())
        XCTAssertEqual(device.stage(of: TargetFirmware(bytes: image.data)).stage, .unchanged)
    }

    /// A block request seen twice (the link's duplicate-notification fault): the engine serves
    /// the block again, and oad.c, which never asks for a block twice, cancels the OAD with
    /// BUFFER_OFL. The transfer starts over once from identify, and the second one completes.
    func testABlockServedTwiceMakesTheDeviceCancelAndTheTransferStartsOver() async throws {
        let image = Self.image(length: 2000)
        let (report, device) = try await flash(image, device: "ti-oad?mtu=64&fault=duplicate-notification:6")
        XCTAssertEqual(report.status, .verified, "\(String(describing: report.error))")
        XCTAssertEqual(report.deviceHolds, [.installed])
        XCTAssertNotEqual(Set(device.blockLog).count, device.blockLog.count, "one block went twice: \(device.blockLog)")
        XCTAssertEqual(device.blockLog.filter { $0 == 0 }.count, 2, "the transfer started over: \(device.blockLog)")
        XCTAssertEqual(device.running, image.data)
    }

    /// The only time oad.c names a block again: its flash write failed (`12 02 <that block>`),
    /// and it has reset the OAD. The serve ends there, nothing more is sent in that transfer, and
    /// the transfer starts over from identify: 36 blocks of 56 bytes at ATT_MTU 64.
    func testAFlashErrorNamingTheBlockAgainStartsTheTransferOver() async throws {
        let image = Self.image(length: 2000)
        let (report, device) = try await flash(image, device: "ti-oad?mtu=64&fault=busy:4")
        XCTAssertEqual(report.status, .verified, "\(String(describing: report.error))")
        XCTAssertEqual(device.blockLog, [0, 1, 2, 3] + Array(0..<36),
                       "block 3 failed in flash; nothing was sent after the device's answer, then all again")
        XCTAssertEqual(device.running, image.data)
    }

    /// oad.c cancels the OAD when the link drops: the procedure runs again from identify and
    /// block 0 (no resume), and ends verified.
    func testALostLinkStartsTheOADOverFromIdentify() async throws {
        let image = Self.image(length: 6000)
        let (report, device) = try await flash(image, device: "ti-oad?mtu=185&fault=disconnect-after:3000")
        XCTAssertEqual(report.status, .verified, String(describing: report.error))
        XCTAssertEqual(report.resumes, 1)
        XCTAssertEqual(device.blockLog.filter { $0 == 0 }.count, 2, "block 0 again after the reconnect: \(device.blockLog)")
        XCTAssertTrue(device.running == image.data)
    }

    /// The link lost as enable arrives, before the device handled it: oad.c cancels the OAD. The
    /// resumed procedure asks the device its software version first: still the old one, so the
    /// image goes again from identify and is enabled; the new version read back proves it runs.
    func testALinkLostOnEnableIsResumedByAskingTheDevice() async throws {
        let image = Self.image(length: 1500)
        let (report, device) = try await flash(image, device: "ti-oad?fault=disconnect-on:enable")
        XCTAssertEqual(report.status, .verified, String(describing: report.error))
        XCTAssertEqual(report.resumes, 1)
        XCTAssertEqual(report.deviceHolds, [.installed])
        XCTAssertEqual(device.running, image.data)
    }

    /// The answer to enable lost in the device's reset: the resumed procedure finds the new
    /// image's software version running (another than before) and sends nothing again.
    func testAnAnswerToEnableLostInTheResetIsResolvedByAskingTheDevice() async throws {
        let image = Self.image(length: 1500)
        let (report, device) = try await flash(image, device: "ti-oad?fault=disconnect-after-command:enable")
        XCTAssertEqual(report.status, .verified, String(describing: report.error))
        XCTAssertEqual(report.deviceHolds, [.installed])
        XCTAssertTrue(report.evidence?.contains("already completed phase 'enable'") ?? false, "\(report.evidence ?? "")")
        XCTAssertEqual(device.blockLog.filter { $0 == 0 }.count, 1, "the image went once: \(device.blockLog)")
        XCTAssertEqual(device.running, image.data)
    }

    func testImagesTooShortOrWithoutTheirCRCAreRefusedBeforeAnythingIsSent() async throws {
        for bytes in [[UInt8](), [0x43], Array(Self.image(length: 60).data.prefix(55))] {
            let (report, device) = try await flash(FlashImage(name: "application", version: "1", data: bytes))
            XCTAssertEqual(report.status, .failed)
            XCTAssertTrue(report.error?.message.hasPrefix("check: expected image.size >= 56 (an OAD image starts with a "
                                                          + "44-byte header and a 12-byte payload segment; image.size = \(bytes.count)") ?? false,
                          "\(String(describing: report.error))")
            XCTAssertTrue(device.receivedCommands.isEmpty, "nothing was sent")
        }
        let damaged = try FirmwarePackage.open(path: EngineTestSupport.repositoryRoot
            .appendingPathComponent("firmware-samples/ti/oad-app-damaged-crc.bin").path)
        let (report, device) = try await flash(FlashImage(name: "application", version: "0002", data: damaged.images[0].data))
        XCTAssertEqual(report.status, .failed)
        XCTAssertTrue(report.error?.message.hasPrefix("check: expected le(slice(image.data, 8, 12)) == crc32(") ?? false,
                      "\(String(describing: report.error))")
        XCTAssertTrue(device.receivedCommands.isEmpty, "nothing was sent")
    }

    // MARK: - Golden bytes (oad.h)

    func testRequestsAreTheBytesOadHDefines() throws {
        let profile = try profile()
        let sample = try FirmwarePackage.open(path: EngineTestSupport.repositoryRoot
            .appendingPathComponent("firmware-samples/ti/oad-app-9604.bin").path).images[0].data
        let scope = Scope(["image": .record(["data": .bytes(sample), "size": .integer(UInt64(sample.count))]),
                           "block": .record(["index": .integer(0x0102), "data": .bytes([0xAA, 0xBB, 0xCC])])])
        func request(_ name: String) throws -> [UInt8] {
            try MessageEncoder.encode(XCTUnwrap(profile.commands[name]).request, in: scope).bytes
        }
        // imgIdentifyPld_t: imgID "CC26x2R1", bimVer 3, metaVer 1, imgCpStat FF, crcStat FF,
        // imgType 7, imgNo 1, len 9604, softVer "0002".
        XCTAssertEqual(try request("identify").hexString, "4343323678325231" + "0301" + "ffff" + "0701" + "84250000" + "30303032")
        XCTAssertEqual(try request("identify"), try TIOADImageHeader(decoding: sample).identifyPayload)
        XCTAssertEqual(try request("image_block"), [0x02, 0x01, 0x00, 0x00, 0xAA, 0xBB, 0xCC])  // u32 LE block + data
        XCTAssertEqual(try request("get_block_size"), [0x01])
        XCTAssertEqual(try request("start"), [0x03])
        XCTAssertEqual(try request("enable"), [0x04])
        XCTAssertEqual(try request("cancel"), [0x05])
        XCTAssertEqual(try request("get_sw_version"), [0x07])
        XCTAssertEqual(try request("get_image_status"), [0x08])
        XCTAssertEqual(try request("get_device_type"), [0x10])
    }

    func testAnswersAndBlockRequestsDecodeAsOadHDefines() throws {
        let profile = try profile()
        func decode(_ bytes: [UInt8], command: String) throws -> MessageDecoder.Outcome {
            let response = try XCTUnwrap(profile.commands[command]?.response)
            return try MessageDecoder.decode(bytes, as: response.message, in: Scope(), status: response.status)
        }
        XCTAssertEqual(try decode([0x01, 0xF4, 0x00], command: "get_block_size"), .matched(["size": .integer(244)]))
        XCTAssertEqual(try decode([0x07, 0x30, 0x30, 0x30, 0x32], command: "get_sw_version"),
                       .matched(["version": .bytes([0x30, 0x30, 0x30, 0x32])]))
        XCTAssertEqual(try decode([0x04, 0x00], command: "enable"), .matched(["status": .integer(0)]))
        XCTAssertEqual(try decode([0x0A], command: "identify"), .matched(["status": .integer(10)]))
        guard case .mismatched = try decode([0x12, 0x00, 0, 0, 0, 0], command: "get_block_size") else {
            return XCTFail("a block request is not the block size answer")
        }
        let request = try XCTUnwrap(profile.notifications["block_request"])
        let status = try XCTUnwrap(profile.notifications["block_status"])
        // blockReqPld_t: 12, prevBlkStat, u32 LE requestedBlk.
        XCTAssertEqual(try MessageDecoder.decode([0x12, 0x00, 0x05, 0x01, 0x00, 0x00], as: request, in: Scope()),
                       .matched(["number": .integer(0x105)]))
        guard case .mismatched = try MessageDecoder.decode([0x12, 0x0E, 0, 0, 0, 0], as: request, in: Scope()) else {
            return XCTFail("DL_COMPLETE is not a request for block 0")
        }
        XCTAssertEqual(try MessageDecoder.decode([0x12, 0x0E, 0, 0, 0, 0], as: status, in: Scope()),
                       .matched(["status": .integer(14), "number": .integer(0)]))
        XCTAssertEqual(try MessageDecoder.decode([0x12, 0x01, 0x29, 0, 0, 0], as: status, in: Scope()),
                       .matched(["status": .integer(1), "number": .integer(41)]))
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }
}
