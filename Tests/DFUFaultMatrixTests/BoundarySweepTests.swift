import DFUEngine
import DFUPackage
import DFUFaultMatrix
import DFUProfile
import DFUSimulator
import Foundation
import XCTest

/// Image sizes at and around every boundary of each protocol (0 and 1 byte, the ATT segment,
/// segment x PRN, Nordic's 4 KiB objects, chunk sizes, window x chunk), at every ATT MTU
/// {23, 27, 185, 247, 498, 517}, PRN {0, 1, 2, 10, 12} and SMP window and reassembly: every
/// update ends verified with exactly the image on the device.
final class BoundarySweepTests: XCTestCase {
    static let mtus = [23, 27, 185, 247, 498, 517]
    static let receiptIntervals = [0, 1, 2, 10, 12]

    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private func profile(_ name: String) throws -> Profile {
        try ProfileLoader.load(path: Self.root.appendingPathComponent("profiles/\(name).yaml").path)
    }

    /// Sizes around each boundary, deduplicated, at least `minimum`, sorted.
    private static func around(_ boundaries: [Int], minimum: Int = 0, step: Int = 1) -> [Int] {
        Array(Set(boundaries.flatMap { [$0 - step, $0, $0 + step] }.filter { $0 >= minimum })).sorted()
    }

    /// Flashes every case; returns the ones that did not end verified with the image in place.
    private func sweep(_ cases: [(label: String, device: String, image: FlashImage, parameters: [String: ParameterValue])],
                       profile: Profile, holds: (any SimulatedPeripheral, FlashImage) -> Bool) async throws -> [String] {
        var failures: [String] = []
        for item in cases {
            let world = try SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(parsing: item.device))
            let report = await FlashSession(profile: profile, images: [item.image], transport: world, address: nil,
                                            options: FlashOptions(parameters: item.parameters)).run()
            if report.status != .verified {
                failures.append("\(item.label): \(report.status.rawValue): \(report.error.map { "\($0)" } ?? "")")
            } else if !holds(world.peripherals[0], item.image) {
                failures.append("\(item.label): verified, but the device does not hold exactly the image")
            }
        }
        return failures
    }

    /// Telink OTA: every packet is 20 bytes whatever the MTU; images whose packets end on, just
    /// after and just before a 16-byte boundary. With the SDK's firmware check an image is
    /// 16n + 4 bytes (its CRC-32 fills the last packet); without it (`firmware-check=0`) any size,
    /// and the update completes rather than verifies (the device did not check the image's CRC).
    func testTelinkOTA() async throws {
        var cases: [(String, String, FlashImage, [String: ParameterValue])] = []
        for mtu in Self.mtus {
            for body in [16_384, 16_400, 20_480] {
                cases.append(("mtu \(mtu) size \(body + 4)", "telink-ota?mtu=\(mtu)", SweepFirmware.telink(body: body), [:]))
            }
        }
        let failures = try await sweep(cases, profile: try profile("telink-ota")) { device, image in
            (device as? TelinkOTADevice)?.running.image == image.data
        }
        XCTAssertEqual(failures, [], "\(cases.count) cases")

        for mtu in [23, 247] {
            for size in Self.around([16_384, 16_400, 16_416], minimum: 16_384) {
                let image = SweepFirmware.telink(body: size, trailer: false)
                let world = try SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(parsing: "telink-ota?mtu=\(mtu)&firmware-check=0"))
                let report = await FlashSession(profile: try profile("telink-ota"), images: [image], transport: world, address: nil,
                                                options: FlashOptions(parameters: ["firmware_check": .integer(0)])).run()
                XCTAssertEqual(report.status, .completed, "mtu \(mtu) size \(size): \(report.error.map { "\($0)" } ?? "")")
                XCTAssertEqual((world.peripherals[0] as? TelinkOTADevice)?.running.image, image.data, "mtu \(mtu) size \(size)")
            }
        }
        // One byte under the SDK's smallest image (FW_MIN_SIZE, 16 KiB): the profile's own check
        // (min_size) refuses it before anything is written; told a smaller minimum, the engine
        // sends it and the device refuses it at the packet with the size: the old image still runs.
        let small = SweepFirmware.telink(body: 16_383, trailer: false)
        for (minimum, deviceRefuses) in [(nil, false), (UInt64(16_000), true)] as [(UInt64?, Bool)] {
            let world = try SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(parsing: "telink-ota?firmware-check=0"))
            var parameters: [String: ParameterValue] = ["firmware_check": .integer(0)]
            if let minimum { parameters["min_size"] = .integer(minimum) }
            let report = await FlashSession(profile: try profile("telink-ota"), images: [small], transport: world, address: nil,
                                            options: FlashOptions(parameters: parameters)).run()
            XCTAssertEqual(report.status, .failed)
            let device = world.peripherals[0] as? TelinkOTADevice
            if deviceRefuses {
                XCTAssertEqual(device?.results.first, .firmwareSizeError)
            } else {
                XCTAssertEqual(device?.results, [], "nothing reached the device's OTA server")
                XCTAssertTrue(report.error?.message.contains("min_size to max_size") ?? false, "\(String(describing: report.error))")
            }
            XCTAssertNil(device?.running.image)
        }
    }

    func testVendorControlPoint() async throws {
        var cases: [(String, String, FlashImage, [String: ParameterValue])] = []
        for mtu in Self.mtus {
            // A data frame is 2 + 1 + 4 + n bytes; chunks are at most 4096 (the device's max_chunk).
            let segment = mtu - 3
            for size in Self.around([0, 1, segment - 7, 2 * segment - 7, 4096, 8192]) {
                cases.append(("mtu \(mtu) size \(size)", "vendor-ctrlpt?mtu=\(mtu)", SweepFirmware.vendor(size: size), [:]))
            }
        }
        let failures = try await sweep(cases, profile: try profile("vendor-ctrlpt")) { device, image in
            (device as? VendorControlPointDevice)?.installed?.data == image.data
        }
        XCTAssertEqual(failures, [], "\(cases.count) cases")
    }

    func testNordicSecureDFU() async throws {
        var cases: [(String, String, FlashImage, [String: ParameterValue])] = []
        for mtu in Self.mtus {
            let segment = mtu - 3
            for prn in Self.receiptIntervals {
                let receipt = max(prn, 1) * segment
                for size in Self.around([1, segment, receipt, 4096, 4096 + receipt, 8192], minimum: 1) {
                    cases.append(("mtu \(mtu) prn \(prn) size \(size)", "nordic-secure-dfu?mtu=\(mtu)",
                                  SweepFirmware.nordicSecure(size: size), ["prn": .integer(UInt64(prn))]))
                }
            }
        }
        let failures = try await sweep(cases, profile: try profile("nordic-secure-dfu")) { device, image in
            (device as? NordicSecureDFUDevice)?.installed.map(\.data) == [image.data]
        }
        XCTAssertEqual(failures, [], "\(cases.count) cases")
    }

    /// Legacy bootloaders take images and packets in whole 32-bit words (nRF5 SDK 11
    /// dfu_transport_ble.c app_data_process, dfu_dual_bank.c dfu_start_pkt_handle): sizes step by 4.
    func testNordicLegacyDFU() async throws {
        var cases: [(String, String, FlashImage, [String: ParameterValue])] = []
        for mtu in Self.mtus {
            let segment = (mtu - 3) / 4 * 4
            for prn in Self.receiptIntervals {
                let receipt = max(prn, 1) * segment
                for size in Self.around([4, segment, receipt, 2 * receipt, 4096], minimum: 4, step: 4) {
                    cases.append(("mtu \(mtu) prn \(prn) size \(size)", "nordic-legacy-dfu?mtu=\(mtu)",
                                  SweepFirmware.nordicLegacy(size: size), ["prn": .integer(UInt64(prn))]))
                }
            }
        }
        // The package of issue 10: 102,400 bytes at MTU 247, PRN 10 and 12 (420 packets).
        for prn in [10, 12] {
            cases.append(("issue 10 package prn \(prn)", "nordic-legacy-dfu?mtu=247",
                          SweepFirmware.nordicLegacy(size: 102_400), ["prn": .integer(UInt64(prn))]))
        }
        let failures = try await sweep(cases, profile: try profile("nordic-legacy-dfu")) { device, image in
            (device as? NordicLegacyDFUDevice)?.installed.map(\.data) == [image.data]
        }
        XCTAssertEqual(failures, [], "\(cases.count) cases")
    }

    /// SMP: chunks of buf_size - 96 bytes with reassembly (2475 on the simulated server), one ATT
    /// write's worth without; windows of 1 and 3 requests (buf_count 4).
    func testMCUmgrSMP() async throws {
        var cases: [(String, String, FlashImage, [String: ParameterValue])] = []
        let overhead = 76  // header 32 + TLV area 44 around the payload
        for mtu in Self.mtus {
            for reassembly in [0, 1] {
                let chunk = reassembly == 1 ? 2475 - 96 : max(mtu, 128) - 3 - 96
                for window in [1, 3] {
                    let totals = Self.around([chunk, window * chunk, 2 * window * chunk])
                    let payloads = Set([0, 1] + totals.map { $0 - overhead }.filter { $0 >= 0 }).sorted()
                    for payload in payloads {
                        cases.append(("mtu \(mtu) reassembly \(reassembly) window \(window) payload \(payload)",
                                      "mcumgr-smp?mtu=\(mtu)", SweepFirmware.mcuboot(payloadSize: payload),
                                      ["window": .integer(UInt64(window)), "reassembly": .integer(UInt64(reassembly))]))
                    }
                }
            }
        }
        let failures = try await sweep(cases, profile: try profile("mcumgr-smp")) { device, image in
            guard let slots = (device as? SMPServerDevice)?.slots else { return false }
            return slots.primary.bytes == image.data && slots.flags(slot: 0).confirmed
        }
        XCTAssertEqual(failures, [], "\(cases.count) cases")
    }
}

/// Dialog SUOTA: the file plus its XOR byte in blocks of `block_size` (64, 128, the apps' 240,
/// 244, the receiver's maximum 512), each block in writes of min(244, MTU - 3) bytes. Sizes are
/// the bytes on the wire (file + 1) around each block count, each write size and the writes that
/// end a block, from the smallest image (64-byte header + 1 byte of code) up.
extension BoundarySweepTests {
    func testDialogSUOTA() async throws {
        var cases: [(String, String, FlashImage, [String: ParameterValue])] = []
        for mtu in Self.mtus {
            let write = min(244, mtu - 3)
            for block in [64, 128, 240, 244, 512] {
                let piece = min(write, block)
                let wire = Self.around([66, block, 2 * block, piece, block + piece, 3 * block - 1, 5 * block])
                for total in wire where total >= 66 {
                    let codeSize = total - 1 - SUOTAImageHeader.size
                    cases.append(("mtu \(mtu) block \(block) wire \(total)", "dialog-suota?mtu=\(mtu)",
                                  SweepFirmware.suota(codeSize: codeSize, seed: UInt64(total)),
                                  ["block_size": .integer(UInt64(block))]))
                }
            }
        }
        let failures = try await sweep(cases, profile: try profile("dialog-suota")) { device, image in
            (device as? DialogSUOTADevice)?.runningImage == image.data
        }
        XCTAssertEqual(failures, [], "\(cases.count) cases")
    }
}

/// The package of issue 10, as `adafruit-nrfutil dfu genpkg` made it (102,400 bytes: 420 packets
/// at ATT MTU 247, so PRN 10 and 12 end on a receipt boundary), at every MTU and PRN.
final class LegacyReceiptBoundaryPackageTests: XCTestCase {
    func testTheAdafruitPackageFlashesVerifiedAtEveryMTUAndPRN() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let package = try FirmwarePackage.open(path: root.appendingPathComponent("firmware-samples/nordic/legacy-app-102400.zip").path)
        try package.requireIntact()
        let part = try XCTUnwrap(package.images.first)
        XCTAssertEqual(part.data.count, 102_400)
        let image = FlashImage(name: part.name, version: part.version, data: part.data, initPacket: part.initPacket ?? [],
                               softDeviceSize: part.softDeviceSize, bootloaderSize: part.bootloaderSize,
                               applicationSize: part.applicationSize)
        let profile = try ProfileLoader.load(path: root.appendingPathComponent("profiles/nordic-legacy-dfu.yaml").path)
        var failures: [String] = []
        for mtu in BoundarySweepTests.mtus {
            for prn in BoundarySweepTests.receiptIntervals {
                let world = try SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(parsing: "nordic-legacy-dfu?mtu=\(mtu)"))
                let report = await FlashSession(profile: profile, images: [image], transport: world, address: nil,
                                                options: FlashOptions(parameters: ["prn": .integer(UInt64(prn))])).run()
                let installed = (world.peripherals[0] as? NordicLegacyDFUDevice)?.installed.map(\.data)
                if report.status != .verified || installed != [image.data] {
                    failures.append("mtu \(mtu) prn \(prn): \(report.status.rawValue) \(report.error.map { "\($0)" } ?? "")")
                }
            }
        }
        XCTAssertEqual(failures, [])
    }
}
