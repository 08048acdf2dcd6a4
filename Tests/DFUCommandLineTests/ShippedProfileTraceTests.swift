import Foundation
import XCTest

/// `dfukit profile trace` over every profile in `profiles/`, each against its simulated device
/// with a shipped sample: the trace runs to the end (verified), every request it decodes is
/// made of exactly the bytes written before it, and the first request of each is the one its
/// protocol's description gives, byte for byte.
final class ShippedProfileTraceTests: XCTestCase {
    /// How one shipped profile is traced: its sample (relative to the repository, or made by
    /// `makeSample`) and its first request as the protocol's description writes it.
    struct Row {
        var sample: String
        var firstRequest: (name: String, hex: String)
        /// Why those bytes: the document and the fields.
        var source: String
        /// Whether the device answers in messages the trace decodes (notifications); false for
        /// protocols whose only answers are write responses and ATT errors (Silicon Labs OTA).
        var answersInMessages = true
        /// The ATT_MTU of the simulated link: the smallest there is, unless the protocol needs more.
        var mtu = 23
        /// The simulated device, when not `sim:PROFILE?mtu=MTU` (a serial-only protocol).
        var device: String?
    }

    /// One row per shipped profile; a profile without a row fails `testEveryShippedProfileHasARow`.
    static let rows: [String: Row] = [
        "vendor-ctrlpt": Row(sample: "vendor-app.zip", firstRequest: ("info", "06"),
                             source: "profiles/vendor-ctrlpt.yaml: opcode 0x06, info (its u16 length header stripped)"),
        "nordic-secure-dfu": Row(sample: "firmware-samples/nordic/app-signed.zip", firstRequest: ("set_prn", "020000"),
                                 source: "nRF5 SDK Secure DFU: Set PRN (0x02), u16 LE 0 (receipts off)"),
        "nordic-legacy-dfu": Row(sample: "firmware-samples/nordic/legacy-app.zip", firstRequest: ("start_dfu", "0104"),
                                 source: "nRF5 SDK 11 legacy DFU: START_DFU (0x01), image type application (0x04)"),
        "mcumgr-smp": Row(sample: "firmware-samples/mcuboot/app-ecdsa-p256.bin",
                          firstRequest: ("params", "0800000100000006a0"),
                          source: "MCUmgr SMP: read (0), flags 0, length 1, group 0 (os), seq 0, id 6 (mcumgr params), CBOR {}"),
        "dialog-suota": Row(sample: "firmware-samples/dialog/app-v1.img", firstRequest: ("memory_device", "00000013"),
                            source: "Dialog SDK 6 suotar: MEM_DEV, u32 LE 0x13 << 24 | 0 (SPI flash, the older image's bank)"),
        "silabs-ota": Row(sample: "firmware-samples/silabs/app-plain.gbl", firstRequest: ("begin", "00"),
                          source: "AN1086: 0x00 to OTA Control in the application (it reboots into the AppLoader); the "
                              + "AppLoader's begin is the same byte on the same characteristic, and the trace names it so",
                          answersInMessages: false),
        // ATT_MTU 25: oad.c takes each write to Image Identify as a whole 22-byte identify.
        // The version the device runs is asked first, so that the one it reports after the reset
        // shows which image runs.
        "ti-oad": Row(sample: "firmware-samples/ti/oad-app-9604.bin", firstRequest: ("get_sw_version", "07"),
                      source: "TI oad.h: OAD_EXT_CTRL_SW_VER (0x07) on the extended control point", mtu: 25),
        "telink-ota": Row(sample: "firmware-samples/telink/app-v1.1.0.zip",
                          firstRequest: ("ota_version", "00ff" + String(repeating: "ff", count: 16) + "4054"),
                          source: "fwupd telink-dfu: the 0xFF00 version command as a 20-byte packet (u16 LE, 16 bytes "
                              + "of 0xFF, CRC-16/MODBUS 0x5440 LE); the device answers nothing",
                          answersInMessages: false),
        // Serial only: MCUboot's serial recovery over a pseudo-terminal.
        "mcuboot-recovery": Row(sample: "firmware-samples/mcuboot/app-ecdsa-p256.bin",
                                firstRequest: ("params", "0800000100000006a0"),
                                source: "boot_serial.c: the mcumgr params request (read, group 0, id 6), answered "
                                    + "{rc: 8} without MCUBOOT_BOOT_MGMT_MCUMGR_PARAMS",
                                device: "sim:mcuboot-recovery?link=pty"),
    ]

    private static var shippedProfiles: [String] {
        get throws {
            let directory = DFUKitBinary.repositoryRoot.appendingPathComponent("profiles")
            return try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasSuffix(".yaml") }
                .map { String($0.dropLast(".yaml".count)) }
                .sorted()
        }
    }

    func testEveryShippedProfileHasARow() throws {
        let profiles = try Self.shippedProfiles
        XCTAssertFalse(profiles.isEmpty)
        XCTAssertEqual(profiles.filter { Self.rows[$0] == nil }, [],
                       "add a row (sample, first request) to ShippedProfileTraceTests.rows")
    }

    func testEveryShippedProfileTracesToTheEndWithTheExactBytesOfItsRequests() throws {
        let directory = try TemporaryDirectory()
        let vendorSample = try PackageCommandTests.makePackage(in: directory, size: 5000)
        for profile in try Self.shippedProfiles {
            guard let row = Self.rows[profile] else { continue }
            let sample = row.sample == "vendor-app.zip"
                ? vendorSample : DFUKitBinary.repositoryRoot.appendingPathComponent(row.sample).path
            let result = try DFUKitBinary.run(["profile", "trace", "profiles/\(profile).yaml", sample,
                                               "--device", row.device ?? "sim:\(profile)?mtu=\(row.mtu)", "--json"],
                                              in: DFUKitBinary.repositoryRoot.path)
            XCTAssertEqual(result.status, 0, "\(profile): \(result.transcript)")
            let events = try result.stdoutLines.map { try jsonObject($0) }
            XCTAssertEqual(events.last?["status"] as? String, "verified", "\(profile): \(result.stdout.suffix(2000))")
            try checkRequestsAreTheBytesWritten(events, profile: profile)
            let first = try XCTUnwrap(events.first { $0["event"] as? String == "message" && $0["kind"] as? String == "request" },
                                      profile)
            XCTAssertEqual(first["name"] as? String, row.firstRequest.name, "\(profile): \(row.source)")
            XCTAssertEqual(first["hex"] as? String, row.firstRequest.hex, "\(profile): \(row.source)")
            XCTAssertTrue(!row.answersInMessages || events.contains { $0["event"] as? String == "message"
                    && $0["direction"] as? String == "notify" && $0["name"] != nil },
                          "\(profile): no answer of the device was decoded")
        }
    }

    /// Every request the trace decodes is within the bytes written to its characteristic since
    /// the previous message there (its framing's header and trailer around it), so the decoded
    /// message and the hex shown are the same bytes.
    private func checkRequestsAreTheBytesWritten(_ events: [[String: Any]], profile: String) throws {
        var written: [String: String] = [:]
        var requests = 0
        for event in events where event["direction"] as? String == "write" && event["event"] as? String != "wire" {
            let characteristic = try XCTUnwrap(event["characteristic"] as? String, profile)
            let hex = try XCTUnwrap(event["hex"] as? String, profile)
            switch event["event"] as? String {
            case "value":
                written[characteristic, default: ""] += hex
            case "message":
                if event["kind"] as? String == "request" {
                    requests += 1
                    let bytes = written[characteristic] ?? ""
                    XCTAssertTrue(bytes.contains(hex),
                                  "\(profile): \(event["name"] ?? "?") decoded as \(hex), written \(bytes)")
                }
                written[characteristic] = ""
            default:
                break
            }
        }
        XCTAssertGreaterThan(requests, 2, "\(profile): too few requests decoded")
    }
}
