import DFUBytes
import DFUEngine
import DFUGATT
import DFUPackage
import DFUProfile
import DFUSimulator
import Foundation
import XCTest

/// End to end: profiles/telink-ota.yaml, run by the engine, against `sim:telink-ota` (the Telink
/// SDK's OTA server), through a transport that records every write.
final class TelinkFlashTests: XCTestCase {
    private static let samples = EngineTestSupport.repositoryRoot.appendingPathComponent("firmware-samples/telink")
    private static let otaUUID = BluetoothUUID(string: "00010203-0405-0607-0809-0A0B0C0D2B12")!

    private struct Run {
        var report: FlashReport
        var device: TelinkOTADevice
        var writes: [RecordingTransport.Write]
    }

    private func profile(replacing old: String? = nil, with new: String = "") throws -> Profile {
        let path = EngineTestSupport.repositoryRoot.appendingPathComponent("profiles/telink-ota.yaml").path
        guard let old else { return try ProfileLoader.load(path: path) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.contains(old), "the profile has '\(old)'")
        return try ProfileLoader.load(text: text.replacingOccurrences(of: old, with: new), path: "telink-ota.yaml")
    }

    /// A valid Telink image: `body` bytes (the KNLT mark, the size, "FWREV=<version>" at 0x20,
    /// pseudo-random code), then, with `trailer`, the CRC-32/JAMCRC of them.
    static func image(body: Int, version: String = "2.0.0", trailer: Bool = true, seed: UInt64 = 3) -> FlashImage {
        let bytes = TelinkImageLayout.build(code: EngineTestSupport.image(size: body, seed: seed).data, version: version,
                                            trailer: trailer)
        return FlashImage(name: "application", version: version, data: bytes)
    }

    private func flash(_ image: FlashImage, device: String = "telink-ota", profile: Profile? = nil,
                       parameters: [String: ParameterValue] = [:]) async throws -> Run {
        let world = try SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(parsing: device))
        let recorder = RecordingTransport(world)
        let report = await FlashSession(profile: try profile ?? self.profile(), images: [image], transport: recorder,
                                        address: nil, options: FlashOptions(parameters: parameters)).run()
        let telink = try XCTUnwrap(world.peripherals.first as? TelinkOTADevice)
        return Run(report: report, device: telink, writes: recorder.writes(to: Self.otaUUID))
    }

    /// The data packets among the writes (first two bytes below 0xFF00).
    private func dataPackets(_ writes: [RecordingTransport.Write]) -> [[UInt8]] {
        writes.map(\.value).filter { $0.count >= 2 && $0[1] != 0xFF }
    }

    private func packageImage(_ name: String) throws -> FlashImage {
        let package = try FirmwarePackage.open(path: Self.samples.appendingPathComponent(name).path)
        try package.requireIntact()
        let image = try XCTUnwrap(package.images.first)
        return FlashImage(name: image.name, version: image.version, data: image.data)
    }

    // MARK: - Updates that work

    func testFwupdArchiveSampleEndsVerifiedWithTheNewVersionRunning() async throws {
        let image = try packageImage("app-v1.1.0.zip")
        XCTAssertEqual(image.version, "1.1.0")
        let run = try await flash(image)
        XCTAssertEqual(run.report.status, .verified, String(describing: run.report.error))
        XCTAssertEqual(run.report.deviceHolds, [.installed])
        XCTAssertEqual(run.report.phasesDone, ["transfer", "install"])
        XCTAssertEqual(run.device.running.image, image.data)
        XCTAssertEqual(run.device.running.revision, "1.1.0")
        XCTAssertEqual(run.device.results, [.success])
        XCTAssertEqual(run.writes.count, 2 + 1025 + 1, "version, start, 1025 packets, end")
    }

    /// A bare .bin has no version: given with --set version=, it verifies; without, it is refused
    /// before anything is written.
    func testBareBinNeedsTheVersionToCheck() async throws {
        let image = try packageImage("app-v1.2.0.bin")
        XCTAssertEqual(image.version, "")
        let refused = try await flash(image)
        XCTAssertEqual(refused.report.status, .failed)
        XCTAssertTrue(refused.report.error?.description.contains("--set version=") == true, String(describing: refused.report.error))
        XCTAssertTrue(refused.writes.isEmpty, "nothing sent")
        let run = try await flash(image, parameters: ["version": .text("1.2.0")])
        XCTAssertEqual(run.report.status, .verified, String(describing: run.report.error))
        XCTAssertEqual(run.device.running.revision, "1.2.0")
    }

    /// `--set version` that differs from what the new image reports: the update works, the device
    /// reports another revision than before, and that is what the report rests on (it used to
    /// fail, and a batch flashed the device three times). Verified, installed, and the evidence
    /// says the given version is not what the image reports.
    func testAVersionGivenThatDiffersFromTheImagesStillEndsInstalledWithTheDifferenceSaid() async throws {
        let run = try await flash(Self.image(body: 16_384, version: "2.0.0"), parameters: ["version": .text("9.9.9")])
        XCTAssertEqual(run.report.status, .verified, String(describing: run.report.error))
        XCTAssertEqual(run.report.deviceHolds, [.installed])
        XCTAssertEqual(run.device.running.revision, "2.0.0")
        let evidence = run.report.evidence ?? ""
        XCTAssertTrue(evidence.contains("changed from '1.0.0' to '2.0.0'") && evidence.contains("'9.9.9'"), evidence)
        let starts = run.writes.filter { $0.value.starts(with: [0x01, 0xFF]) }
        XCTAssertEqual(starts.count, 1, "flashed once")
    }

    /// A device that already reports the version gets nothing: both phases are done.
    func testDeviceAlreadyRunningTheVersionIsLeftAlone() async throws {
        let run = try await flash(Self.image(body: 16_384), device: "telink-ota?firmware-revision=2.0.0")
        XCTAssertEqual(run.report.status, .completed, String(describing: run.report.error))
        XCTAssertEqual(run.report.deviceHolds, [.installed])
        XCTAssertTrue(run.writes.isEmpty)
        // Nothing was sent, and the report says so (it used to claim the whole image).
        XCTAssertEqual(run.report.bytes, 0)
        XCTAssertEqual(run.report.bytesAlreadyOnDevice, Self.image(body: 16_384).data.count)
        XCTAssertTrue(run.report.notSent?.contains("already held") ?? false, String(describing: run.report.notSent))
    }

    /// Images across the packet boundaries, at several MTUs (every packet is 20 bytes, so the MTU
    /// changes nothing on the wire): the right number of packets, indexes 0...n-1 in order, the
    /// last padded with 0xFF, the end command naming n-1, the device running exactly the image.
    func testSizesAcrossPacketBoundariesAtSeveralMTUs() async throws {
        for body in [16_384, 16_400, 16_416, 65_536] {
            for mtu in [23, 185, 247] {
                let image = Self.image(body: body, seed: UInt64(body + mtu))
                let run = try await flash(image, device: "telink-ota?mtu=\(mtu)")
                let label = "\(image.data.count) bytes at MTU \(mtu)"
                XCTAssertEqual(run.report.status, .verified, "\(label): \(String(describing: run.report.error))")
                XCTAssertEqual(run.device.running.image, image.data, label)
                assertPackets(run.writes, carry: image.data, label)
            }
        }
    }

    /// Without the firmware check (a device built with it off, `--set firmware_check=0`) an image
    /// may end anywhere: remainders 1, 15, 16, 17, 31, 32, 33 in the last packets. The update
    /// completes (the device checked the packets, not the image's own CRC, so not "verified").
    func testRemaindersAcrossTheLastPacketWithoutTheFirmwareCheck() async throws {
        for extra in [1, 15, 16, 17, 31, 32, 33] {
            let image = Self.image(body: 16_384 + extra, trailer: false, seed: UInt64(extra))
            let run = try await flash(image, device: "telink-ota?firmware-check=0", parameters: ["firmware_check": .integer(0)])
            let label = "\(image.data.count) bytes"
            XCTAssertEqual(run.report.status, .completed, "\(label): \(String(describing: run.report.error))")
            XCTAssertEqual(run.report.deviceHolds, [.installed], label)
            XCTAssertEqual(run.device.running.image, image.data, label)
            assertPackets(run.writes, carry: image.data, label)
        }
    }

    private func assertPackets(_ writes: [RecordingTransport.Write], carry image: [UInt8], _ label: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        let packets = dataPackets(writes)
        let count = (image.count + 15) / 16
        XCTAssertEqual(packets.count, count, label, file: file, line: line)
        XCTAssertTrue(packets.allSatisfy { $0.count == 20 }, label, file: file, line: line)
        XCTAssertEqual(packets.map { Int($0[0]) | Int($0[1]) << 8 }, Array(0..<count), label, file: file, line: line)
        XCTAssertEqual(packets.flatMap { $0[2..<18] }.prefix(image.count), ArraySlice(image), label, file: file, line: line)
        let padding = count * 16 - image.count
        XCTAssertEqual(packets.last.map { Array($0[(18 - padding)..<18]) }, [UInt8](repeating: 0xFF, count: padding),
                       label, file: file, line: line)
        let end = writes.last?.value ?? []
        XCTAssertEqual(Array(end.prefix(6)), TelinkOTAEndCommand(lastIndex: UInt16(count - 1)).bytes, label, file: file, line: line)
    }

    // MARK: - What fwupd sends

    /// The first packets and the end command, byte for byte as fwupd's telink-dfu plugin builds
    /// them (`fu_telink_dfu_ble_device_create_packet`: a 0xFF-filled payload, CRC-16/MODBUS), the
    /// CRCs computed by an independent bitwise CRC-16 (reflected 0xA001, init 0xFFFF) in Python,
    /// and the spacing: at least fwupd's 5 ms between writes.
    func testGoldenBytesMatchWhatFwupdSends() async throws {
        let image = try packageImage("app-v1.1.0.bin")
        let run = try await flash(image, parameters: ["version": .text("1.1.0")])
        XCTAssertEqual(run.report.status, .verified, String(describing: run.report.error))
        let values = run.writes.map { $0.value.hexString }
        XCTAssertEqual(values[0], "00ffffffffffffffffffffffffffffffffff4054", "version")
        XCTAssertEqual(values[1], "01ffffffffffffffffffffffffffffffffff11a8", "start")
        XCTAssertEqual(values[2], "0000" + "8006000000000000" + "4b4e4c54c0008800" + "1801", "packet 0: header, KNLT, 0x00880000 + 0xC0")
        XCTAssertEqual(values[1026], "00046760c0b9ffffffffffffffffffffffff0fae", "packet 1024: the CRC-32 trailer, padded")
        XCTAssertEqual(values[1027], "02ff0004fffbffffffffffffffffffffffff559b", "end: last index 0x0400 and its complement")
        let gaps = zip(run.writes.dropFirst(), run.writes).map { $0.time - $1.time }
        XCTAssertGreaterThanOrEqual(gaps.min() ?? .zero, .milliseconds(5))
        XCTAssertTrue(run.writes.allSatisfy { $0.type == .withoutResponse })
    }

    // MARK: - Packets lost or damaged, links lost

    /// A packet damaged on its way (its CRC fails) or lost (the next index does not follow): the
    /// device ends the OTA and its link, erases and reboots into the old image; the procedure runs
    /// again from the start and verifies.
    func testDamagedOrLostPacketEndsTheOTAAndTheUpdateStartsOver() async throws {
        let image = Self.image(body: 16_384)
        for fault in ["corrupt-write:300", "drop-write:300"] {
            let run = try await flash(image, device: "telink-ota?fault=\(fault)")
            XCTAssertEqual(run.report.status, .verified, "\(fault): \(String(describing: run.report.error))")
            XCTAssertEqual(run.report.resumes, 1, fault)
            XCTAssertEqual(run.device.results, [fault.hasPrefix("corrupt") ? .dataCRCError : .dataPacketSequenceError, .success], fault)
            XCTAssertEqual(run.device.running.image, image.data, fault)
            let starts = run.writes.filter { $0.value.starts(with: [0x01, 0xFF]) }
            XCTAssertEqual(starts.count, 2, "\(fault): no resume in Telink OTA, a second OTA from packet 0")
        }
    }

    /// The last packet lost: the device cannot see a gap, so the end command finds it missing
    /// (OTA_DATA_UNCOMPLETE / the CRC-32 never matched): the device reboots into its old image,
    /// and the version read back says so. Failed, holding the old image.
    func testLostLastPacketIsRefusedAtTheEndAndTheOldVersionIsReadBack() async throws {
        let run = try await flash(Self.image(body: 16_384), device: "telink-ota?fault=drop-write:1027")
        XCTAssertEqual(run.report.status, .failed)
        let message = run.report.error?.description ?? ""
        XCTAssertTrue(message.contains("does not run the new image") && message.contains("still reports '1.0.0'"), message)
        XCTAssertEqual(run.report.deviceHolds, [.unchanged])
        XCTAssertEqual(run.device.results, [.firmwareCheckError])
        XCTAssertNil(run.device.running.image)
        XCTAssertEqual(run.device.running.revision, "1.0.0")
    }

    /// fwupd's end index ((packets >> 4) - 1) against the same device: refused at the end, the
    /// old version read back, failed.
    func testFwupdsEndIndexIsRefusedByTheSDKServer() async throws {
        let fwupd = try profile(replacing: "(image.size + 15) / 16 - 1", with: "((image.size + 15) / 16 >> 4) - 1")
        let run = try await flash(Self.image(body: 16_384), profile: fwupd)
        XCTAssertEqual(run.report.status, .failed)
        XCTAssertEqual(run.device.results, [.dataIncomplete])
        XCTAssertEqual(Array(run.writes.last?.value.prefix(6) ?? []), TelinkOTAEndCommand(lastIndex: 63).bytes)
        XCTAssertEqual(run.report.deviceHolds, [.unchanged])
        XCTAssertEqual(run.device.running.revision, "1.0.0")
    }

    /// A link lost mid-transfer: the device's OTA goes on until its timeouts, so the first new
    /// start meets it (OTA_FLOW_ERR: the device ends the link, erases, reboots); the next start
    /// runs a whole new OTA. No resume from the offset reached: Telink OTA has none.
    func testLinkLostMidTransferStartsTheOTAAgainFromTheFirstPacket() async throws {
        let image = Self.image(body: 16_384)
        let run = try await flash(image, device: "telink-ota?fault=disconnect-after:8000")
        XCTAssertEqual(run.report.status, .verified, String(describing: run.report.error))
        XCTAssertEqual(run.report.resumes, 2)
        XCTAssertEqual(run.device.results, [.flowError, .success])
        XCTAssertEqual(run.device.running.image, image.data)
        let starts = run.writes.filter { $0.value.starts(with: [0x01, 0xFF]) }
        XCTAssertEqual(starts.count, 3, "the first OTA, the start refused, the OTA that took")
        let firstPackets = dataPackets(run.writes).filter { $0[0] == 0 && $0[1] == 0 }
        XCTAssertEqual(firstPackets.count, 3, "each OTA begins at packet 0 (the refused one's was on its way)")
    }

    /// Links lost at pseudo-random offsets: every run ends verified with exactly the image, or
    /// fails with the old image still running; never another image.
    func testLinksLostAtManyOffsetsNeverLeaveAWrongImage() async throws {
        let image = Self.image(body: 16_384)
        var state: UInt64 = 7
        for _ in 0..<8 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let cut = 40 + Int(state >> 40) % 20_000
            let run = try await flash(image, device: "telink-ota?fault=disconnect-after:\(cut)")
            if run.report.status == .verified {
                XCTAssertEqual(run.device.running.image, image.data, "cut at \(cut)")
            } else {
                XCTAssertNil(run.device.running.image, "cut at \(cut): \(String(describing: run.report.error))")
            }
            XCTAssertEqual(run.report.status, .verified, "cut at \(cut): \(String(describing: run.report.error))")
        }
    }

    /// The link lost as the end command arrives, before the device read it: to the client it is
    /// the drop it expects after the end (nothing is acknowledged); the device, though, still
    /// runs the old image (its OTA ends later by the packet timeout). The version read back says
    /// so: failed, holding the old image. The end command read, then the link lost: the device
    /// reboots into the new image and the version read back verifies it.
    func testLinkLostAroundTheEndCommand() async throws {
        let image = Self.image(body: 16_384)
        let lost = try await flash(image, device: "telink-ota?fault=disconnect-on:ota_end")
        XCTAssertEqual(lost.report.status, .failed)
        XCTAssertTrue(lost.report.error?.description.contains("still reports '1.0.0'") == true,
                      String(describing: lost.report.error))
        XCTAssertEqual(lost.report.deviceHolds, [.unchanged])
        XCTAssertNil(lost.device.running.image)
        XCTAssertFalse(lost.device.results.contains(.success))

        let processed = try await flash(image, device: "telink-ota?fault=disconnect-after-command:ota_end")
        XCTAssertEqual(processed.report.status, .verified, String(describing: processed.report.error))
        XCTAssertEqual(processed.report.deviceHolds, [.installed])
        XCTAssertEqual(processed.device.running.image, image.data)
        XCTAssertEqual(processed.device.results, [.success])
    }

    // MARK: - The result a newer server notifies (result-feedback=1)

    /// A device whose application allows larger images only (min-size above the image's size,
    /// which the profile's own min_size lets through): the server refuses at the packet holding
    /// the size (OTA_FW_SIZE_ERR). A newer server says so before it ends the link: the update
    /// ends at once, failed with the result's name, one OTA on the device, no resume, nothing
    /// retried; the device still runs its old image.
    func testSizeRefusalWithResultFeedbackEndsAtOnceNamingTheResult() async throws {
        let run = try await flash(Self.image(body: 16_384), device: "telink-ota?result-feedback=1&min-size=32768")
        XCTAssertEqual(run.report.status, .failed)
        let error = try XCTUnwrap(run.report.error)
        XCTAssertEqual(error.kind, .device)
        XCTAssertTrue(error.message.contains("the device sent 'ota_result' (status 0xB (OTA_FW_SIZE_ERR)"), error.message)
        XCTAssertTrue(error.message.contains("not retried: the device refused for good"), error.message)
        XCTAssertEqual(run.report.resumes, 0)
        XCTAssertEqual(run.report.retries, 0)
        XCTAssertEqual(run.device.results, [.firmwareSizeError], "one OTA, refused once")
        XCTAssertEqual(run.writes.filter { $0.value.starts(with: [0x01, 0xFF]) }.count, 1, "one start")
        XCTAssertEqual(run.report.deviceHolds, [.unchanged])
        XCTAssertNil(run.device.running.image)
    }

    /// The same refusal from an older server, which notifies nothing: the client only sees the
    /// link end, and resumes as the profile allows (each OTA refused again), then fails.
    func testSizeRefusalWithoutResultFeedbackReadsAsALostLink() async throws {
        let run = try await flash(Self.image(body: 16_384), device: "telink-ota?min-size=32768")
        XCTAssertEqual(run.report.status, .failed)
        let error = try XCTUnwrap(run.report.error)
        XCTAssertEqual(error.kind, .disconnected, error.message)
        XCTAssertFalse(error.message.contains("ota_result"), error.message)
        XCTAssertTrue(error.message.contains("gave up after 3 resume(s)"), error.message)
        XCTAssertEqual(run.report.resumes, 3)
        XCTAssertEqual(run.device.results, Array(repeating: .firmwareSizeError, count: 4))
    }

    /// A newer server's OTA_SUCCESS before its reboot is heard and is no failure: verified as
    /// without feedback.
    func testSuccessWithResultFeedbackEndsVerified() async throws {
        let image = Self.image(body: 16_384)
        let run = try await flash(image, device: "telink-ota?result-feedback=1")
        XCTAssertEqual(run.report.status, .verified, String(describing: run.report.error))
        XCTAssertEqual(run.report.deviceHolds, [.installed])
        XCTAssertEqual(run.report.resumes, 0)
        XCTAssertEqual(run.device.results, [.success])
        XCTAssertEqual(run.device.running.image, image.data)
    }

    /// A refusal a new OTA can get past (a packet damaged on its way, OTA_DATA_CRC_ERR), heard
    /// from a newer server: resumed as before, and verified.
    func testRetryableRefusalWithResultFeedbackResumes() async throws {
        let image = Self.image(body: 16_384)
        let run = try await flash(image, device: "telink-ota?result-feedback=1&fault=corrupt-write:300")
        XCTAssertEqual(run.report.status, .verified, String(describing: run.report.error))
        XCTAssertEqual(run.report.resumes, 1)
        XCTAssertEqual(run.device.results, [.dataCRCError, .success])
    }

    // MARK: - Images the device would refuse, and its timeouts

    /// Refused before anything is written: no KNLT, a wrong size field, a damaged CRC-32.
    func testImagesTheDeviceWouldRefuseAreRefusedBeforeUpload() async throws {
        var noMark = Self.image(body: 16_384)
        noMark.data[9] = 0
        var wrongSize = Self.image(body: 16_384)
        wrongSize.data[0x19] ^= 0x01
        var damaged = Self.image(body: 16_384)
        damaged.data[5000] ^= 0x01
        for (image, words) in [(noMark, "no KNLT mark"), (wrongSize, "size at offset 0x18"), (damaged, "CRC-32")] {
            let run = try await flash(image)
            XCTAssertEqual(run.report.status, .failed)
            XCTAssertTrue(run.report.error?.description.contains(words) == true, String(describing: run.report.error))
            XCTAssertTrue(run.writes.isEmpty, words)
            XCTAssertEqual(run.report.error?.deviceState,
                           "the update stopped before its first phase: none of this image was sent to the device", words)
        }
    }

    /// The SDK's default 30 s for the whole OTA is too short for 128 KiB at fwupd's 5 ms per
    /// packet: the device ends every attempt; the update fails with the old image running. An
    /// application that allows 120 s takes it.
    func testWholeOTATimeoutAgainstALargeImage() async throws {
        let image = Self.image(body: 128 * 1024)
        let slow = try await flash(image)
        XCTAssertEqual(slow.report.status, .failed)
        XCTAssertEqual(Set(slow.device.results), [.timeout])
        XCTAssertEqual(slow.report.deviceHolds, [.unchanged])
        XCTAssertNil(slow.device.running.image)
        let patient = try await flash(image, device: "telink-ota?ota-timeout-s=120")
        XCTAssertEqual(patient.report.status, .verified, String(describing: patient.report.error))
        XCTAssertEqual(patient.device.running.image, image.data)
    }
}
