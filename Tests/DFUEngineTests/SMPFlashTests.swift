import Foundation
import DFUEngine
import DFUGATT
import DFUPackage
import DFUProfile
import DFUSimulator
import XCTest

/// End to end: the MCUmgr SMP profile, run by the engine, against the simulated SMP server,
/// with MCUboot images made by imgtool (firmware-samples/mcuboot).
final class SMPFlashTests: XCTestCase {
    private static let samples = EngineTestSupport.repositoryRoot.appendingPathComponent("firmware-samples/mcuboot")

    private func profile() throws -> Profile {
        try ProfileLoader.load(path: EngineTestSupport.repositoryRoot.appendingPathComponent("profiles/mcumgr-smp.yaml").path)
    }

    private func image(_ name: String = "app-ecdsa-p256.bin") throws -> FlashImage {
        let opened = try FirmwarePackage.open(path: Self.samples.appendingPathComponent(name).path)
        try opened.requireIntact()
        let image = opened.images[0]
        return FlashImage(name: image.name, version: image.version, data: image.data,
                          imageHash: try XCTUnwrap(image.mcubootImage?.imageHash))
    }

    private func flash(_ image: FlashImage, device: String = "mcumgr-smp",
                       parameters: [String: ParameterValue] = [:]) async throws -> (FlashReport, SimulatedWorld) {
        let world = try SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(parsing: device))
        let report = await FlashSession(profile: try profile(), images: [image], transport: world, address: nil,
                                        options: FlashOptions(parameters: parameters)).run()
        return (report, world)
    }

    /// The device's image list, through the same profile (`dfukit smp image list`).
    private func imageList(_ world: SimulatedWorld) async throws -> [[String: Value]] {
        let result = await CommandExecution.run("image_list", profile: try profile(), transport: world, address: nil)
        guard case let .record(body)? = result.fields?["body"], case let .list(items)? = body["images"] else {
            XCTFail("no image list: \(String(describing: result.report.error))")
            return []
        }
        return items.compactMap { if case let .record(record) = $0 { return record } else { return nil } }
    }

    func testTestAndConfirmLeavesTheNewImageActiveAndConfirmed() async throws {
        let firmware = try image()
        let (report, world) = try await flash(firmware)
        XCTAssertEqual(report.status, .verified, String(describing: report.error))
        let slots = try await imageList(world)
        let active = try XCTUnwrap(slots.first { $0["active"] == .boolean(true) })
        XCTAssertTrue(active["hash"] == .bytes(firmware.imageHash), "the uploaded image runs")
        XCTAssertEqual(active["confirmed"], .boolean(true))
    }

    func testUpgradeModes() async throws {
        let firmware = try image()
        for mode in ["test-only", "confirm-only", "upload-only"] {
            let (report, world) = try await flash(firmware, parameters: ["mode": .text(mode)])
            XCTAssertEqual(report.status, .verified, "\(mode): \(String(describing: report.error))")
            let slots = try await imageList(world)
            let new = try XCTUnwrap(slots.first { $0["hash"] == .bytes(firmware.imageHash) }, mode)
            switch mode {
            case "test-only":
                XCTAssertEqual(new["active"], .boolean(true), mode)
                XCTAssertEqual(new["confirmed"], .boolean(false), "a tested image is not confirmed")
            case "confirm-only":
                XCTAssertEqual(new["active"], .boolean(true), mode)
                XCTAssertEqual(new["confirmed"], .boolean(true), mode)
            default:
                XCTAssertEqual(new["active"], .boolean(false), "upload-only leaves the image in the secondary slot")
            }
        }
    }

    func testWindowsAndReassemblyAllVerify() async throws {
        let firmware = try image()
        for (window, reassembly) in [(1, 0), (1, 1), (3, 0), (3, 1), (0, 1)] {
            let (report, _) = try await flash(firmware, device: "mcumgr-smp?mtu=247",
                                              parameters: ["window": .integer(UInt64(window)),
                                                           "reassembly": .integer(UInt64(reassembly))])
            XCTAssertEqual(report.status, .verified, "window \(window) reassembly \(reassembly): \(String(describing: report.error))")
        }
    }

    func testWindowedUploadIsFasterThanOneRequestAtATime() async throws {
        let firmware = try image()
        let (slow, _) = try await flash(firmware, parameters: ["window": .integer(1), "reassembly": .integer(0)])
        let (fast, _) = try await flash(firmware, parameters: ["window": .integer(0), "reassembly": .integer(1)])
        XCTAssertEqual(slow.status, .verified)
        XCTAssertEqual(fast.status, .verified)
        // The upload alone: the reset delay, MCUboot's swap and the boot after it take as long either way.
        let slowUpload = try XCTUnwrap(slow.transferSeconds), fastUpload = try XCTUnwrap(fast.transferSeconds)
        XCTAssertLessThan(fastUpload * 2, slowUpload, "simulated time: the window and reassembly must pay off")
    }

    func testResumeAfterDisconnectsContinuesFromTheDeviceOffset() async throws {
        let firmware = try image()
        for cut in [700, 9_000, 21_000, 33_000] {
            let (report, world) = try await flash(firmware, device: "mcumgr-smp?fault=disconnect-after:\(cut)")
            XCTAssertEqual(report.status, .verified, "cut at \(cut): \(String(describing: report.error))")
            XCTAssertGreaterThanOrEqual(report.resumes, 1, "cut at \(cut)")
            let slots = try await imageList(world)
            XCTAssertTrue(slots.contains { $0["hash"] == .bytes(firmware.imageHash) && $0["confirmed"] == .boolean(true) },
                          "cut at \(cut)")
        }
    }

    /// A device holding part of another file (another `sha`) must not resume it: the new
    /// upload starts over and the new image is the one installed.
    func testAPartialUploadOfAnotherFileIsNotResumed() async throws {
        let first = try image("app-ecdsa-p256.bin")
        let second = try image("app-ed25519.bin")
        let fleet = try SimulatedFleet(try SimulatorConfiguration(parsing: "mcumgr-smp?fleet=1&fault-rate=1"))
        let address = fleet.advertisements[0].address
        let broken = await FlashSession(profile: try profile(), images: [first],
                                        transport: try XCTUnwrap(fleet.world(for: address, attempt: 1, concurrency: 1)),
                                        address: address).run()
        XCTAssertEqual(broken.status, .failed, "the first upload stops part-way")
        let world = try XCTUnwrap(fleet.world(for: address, attempt: 2, concurrency: 1))
        let report = await FlashSession(profile: try profile(), images: [second], transport: world, address: address).run()
        XCTAssertEqual(report.status, .verified, String(describing: report.error))
        let slots = try await imageList(world)
        XCTAssertTrue(slots.contains { $0["hash"] == .bytes(second.imageHash) && $0["active"] == .boolean(true) })
        XCTAssertFalse(slots.contains { $0["hash"] == .bytes(first.imageHash) && $0["active"] == .boolean(true) })
    }

    /// An SMP v1-only server: answers and errors in the v1 format (`rc`), which the profile
    /// reads as well as v2's `err.rc`.
    func testAVersion1ServerWorksAndItsErrorsAreNamed() async throws {
        let firmware = try image()
        let (report, _) = try await flash(firmware, device: "mcumgr-smp?smp-version=1")
        XCTAssertEqual(report.status, .verified, String(describing: report.error))
        let tooLarge = FlashImage(name: firmware.name, version: firmware.version,
                                  data: firmware.data + [UInt8](repeating: 0xFF, count: 2 << 20), imageHash: firmware.imageHash)
        let (refused, _) = try await flash(tooLarge, device: "mcumgr-smp?smp-version=1")
        XCTAssertEqual(refused.status, .failed)
        XCTAssertTrue((refused.error?.description ?? "").contains("send 'upload' failed: the device answered status"),
                      String(describing: refused.error))
    }

    /// A lost answer in a windowed upload: after the timeout the upload is sent again from the
    /// oldest unanswered request, and that is said (a retry), not waited out in silence.
    func testDroppedAnswersAreResent() async throws {
        let world = try SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(parsing: "mcumgr-smp?fault=drop-notification:6"))
        let said = EventLog()
        let report = await FlashSession(profile: try profile(), images: [try image()], transport: world, address: nil,
                                        options: FlashOptions(), onEvent: { said.append($0) }).run()
        XCTAssertEqual(report.status, .verified, String(describing: report.error))
        XCTAssertGreaterThan(report.retries, 0)
        let retries = said.events.compactMap { event -> String? in
            if case let .retrying(text) = event { return text } else { return nil }
        }
        XCTAssertTrue(retries.contains { $0.hasPrefix("no answer to 'upload' within 30 s; sending again from offset ") },
                      "\(retries)")
    }

    /// An image whose payload no longer matches its SHA256 TLV: the device lists it (by the TLV),
    /// MCUboot refuses to boot it after the reset and erases it; the report says the device may
    /// hold nothing of it, as it does.
    func testAnImageMCUbootRefusesToBootFailsSayingWhatTheDeviceHolds() async throws {
        let good = try image()
        var data = good.data
        data[100] ^= 0xFF
        let tampered = FlashImage(name: good.name, version: good.version, data: data, imageHash: good.imageHash)
        let (report, world) = try await flash(tampered)
        XCTAssertEqual(report.status, .failed)
        XCTAssertTrue(report.error?.message.contains("after the reset the device does not run the new image") ?? false,
                      String(describing: report.error))
        XCTAssertEqual(report.deviceHolds, [.unchanged, .received, .pending])
        let actual = try XCTUnwrap(world.peripherals.first as? SMPServerDevice).stage(of: TargetFirmware(bytes: data))
        XCTAssertEqual(actual.stage, .unchanged, actual.summary)
        XCTAssertTrue(report.error?.deviceState?.hasPrefix("as its answer shows, the device still runs its previous firmware") ?? false,
                      String(describing: report.error?.deviceState))
    }

    func testBusyDeviceIsRetriedAndTheUploadResumes() async throws {
        let (report, _) = try await flash(try image(), device: "mcumgr-smp?fault=busy:3")
        XCTAssertEqual(report.status, .verified, String(describing: report.error))
        XCTAssertGreaterThan(report.retries, 0)
    }

    func testAnImageTooLargeForTheSlotFailsWithTheDeviceError() async throws {
        var firmware = try image()
        firmware = FlashImage(name: firmware.name, version: firmware.version,
                              data: firmware.data + [UInt8](repeating: 0xFF, count: 2 << 20), imageHash: firmware.imageHash)
        let (report, _) = try await flash(firmware)
        XCTAssertEqual(report.status, .failed)
        XCTAssertNotNil(report.error)
        XCTAssertEqual(report.error?.kind, .device, String(describing: report.error))
    }
}

/// Events a session reports, collected across tasks.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [FlashEvent] = []
    func append(_ event: FlashEvent) { lock.lock(); stored.append(event); lock.unlock() }
    var events: [FlashEvent] { lock.lock(); defer { lock.unlock() }; return stored }
}
