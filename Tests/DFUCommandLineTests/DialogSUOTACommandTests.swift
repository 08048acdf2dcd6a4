import Foundation
import XCTest

/// `dfukit` with Renesas/Dialog SUOTA images (firmware-samples/dialog): inspect shows the
/// header, flash checks it before anything is sent, and the result says what the device holds.
final class DialogSUOTACommandTests: XCTestCase {
    private let samples = DFUKitBinary.repositoryRoot.appendingPathComponent("firmware-samples/dialog")
    private var profile: String { DFUKitBinary.repositoryRoot.appendingPathComponent("profiles/dialog-suota.yaml").path }

    private func flash(_ image: String, device: String = "sim:dialog-suota", extra: [String] = [],
                       profile: String? = nil) throws -> ProcessResult {
        try DFUKitBinary.run(["flash", "--profile", profile ?? self.profile, "--device", device,
                              samples.appendingPathComponent(image).path, "--json"] + extra)
    }

    func testInspectShowsTheHeaderAndItsChecks() throws {
        let result = try DFUKitBinary.run(["package", "inspect", samples.appendingPathComponent("app-v2.img").path])
        XCTAssertEqual(result.status, 0, result.transcript)
        for line in ["format:  dialog-suota (Renesas/Dialog SUOTA image, mkimage single: DA1458x/DA14531 'pQ' header)",
                     "  version: 1.1.0", "  profile: dialog-suota", "  code size: 12345 bytes",
                     "  timestamp: 1717243200 (2024-06-01T12:00:00Z)",
                     "  ok   file_format: size: 64-byte header + 12345 bytes of code = 12409 bytes", "result:  intact"] {
            XCTAssertTrue(result.stdout.contains(line), "\(line)\n\(result.transcript)")
        }
    }

    func testAnImageIsFlashedVerifiedAndTheDeviceRunsIt() throws {
        let result = try flash("app-v1.img", device: "sim:dialog-suota?mtu=185")
        XCTAssertEqual(result.status, 0, result.transcript)
        let json = try jsonObject(result.stdout)
        XCTAssertEqual(json["status"] as? String, "verified")
        // The device reset, but SUOTA cannot show which image its bootloader started (its
        // CRC-32 check may have rejected the new one): both stages, and why.
        XCTAssertEqual(json["device_holds"] as? [String], ["unchanged", "pending", "installed"])
        XCTAssertTrue((json["evidence"] as? String)?.contains("SUOTA gives no way to tell which image the device runs") ?? false,
                      result.transcript)
        XCTAssertEqual(json["phases_done"] as? [String], ["upload", "validate", "reboot"])
    }

    func testADamagedImageIsRefusedBeforeAnythingIsSent() throws {
        let result = try flash("damaged-crc.img")
        XCTAssertEqual(result.status, 65, result.transcript)
        XCTAssertTrue(result.stderr.contains("fails its file format's own checks: file_format check failed: crc32"), result.transcript)
        XCTAssertTrue(result.stderr.contains("nothing was sent to the device"), result.transcript)
        XCTAssertFalse(result.stderr.contains("connected"), result.transcript)
    }

    /// A block over the receiver's 512-byte buffer: the shipped profile's range refuses it
    /// before the radio; a profile without that range sends it, and the device refuses it
    /// (INT_MEM_ERR), reported with what the device holds.
    func testTheDevicesRefusalIsReportedWithWhatItHolds() throws {
        let refused = try flash("app-v1.img", extra: ["--set", "block_size=1024"])
        XCTAssertEqual(refused.status, 64, refused.transcript)
        XCTAssertTrue(refused.stderr.contains("parameter 'block_size' is '1024', above its maximum 512"), refused.transcript)
        let directory = try TemporaryDirectory()
        let unlimited = directory.file("dialog-unlimited.yaml")
        let text = try String(contentsOfFile: profile, encoding: .utf8)
        XCTAssertTrue(text.contains("    max: 512\n"))
        try text.replacingOccurrences(of: "    max: 512\n", with: "").write(toFile: unlimited, atomically: true, encoding: .utf8)
        let result = try flash("app-v1.img", extra: ["--set", "block_size=1024"], profile: unlimited)
        XCTAssertNotEqual(result.status, 0, result.transcript)
        let json = try jsonObject(result.stdout)
        XCTAssertEqual(json["status"] as? String, "failed")
        XCTAssertEqual(json["device_holds"] as? [String], ["unchanged"])
        let error = try XCTUnwrap(json["error"] as? [String: Any])
        XCTAssertTrue((error["message"] as? String ?? "").contains("int-mem-err"), result.transcript)
        XCTAssertEqual(error["device"] as? String, "the device still runs its previous firmware")
    }
}
