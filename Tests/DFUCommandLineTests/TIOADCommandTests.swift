import Foundation
import XCTest

/// `dfukit` with TI OAD image files: `package inspect` shows the header and segments, `flash`
/// reads the file as a package of one image for profile ti-oad, and a damaged file is refused
/// before anything is sent.
final class TIOADCommandTests: XCTestCase {
    private let samples = DFUKitBinary.repositoryRoot.appendingPathComponent("firmware-samples/ti")

    func testInspectShowsTheHeaderSegmentsAndChecks() throws {
        let result = try DFUKitBinary.run(["package", "inspect", samples.appendingPathComponent("oad-split-app-4800.bin").path])
        XCTAssertEqual(result.status, 0, result.transcript)
        let lines = result.stdoutLines
        XCTAssertTrue(lines.contains("format:  ti-oad (TI OAD image (BLE5-Stack, SimpleLink CC13xx/CC26xx oad_image_tool))"),
                      result.stdout)
        XCTAssertTrue(lines.contains("  version: 0102"), result.stdout)
        XCTAssertTrue(lines.contains("  profile: ti-oad"), result.stdout)
        XCTAssertTrue(lines.contains("  image type: application (1)"), result.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("  segment 0: boundary segment at 44, 24 bytes") }, result.stdout)
        XCTAssertTrue(lines.contains("  ok   file_format: crc32: the CRC-32 of bytes 12 to 4800 is 0x44f75bb4, as the header says"),
                      result.stdout)
        XCTAssertEqual(lines.last, "result:  intact")
    }

    func testFlashOverTheSimulatorEndsVerifiedWithTheDeviceRunningTheImage() throws {
        let result = try DFUKitBinary.run(["flash", "--profile", "ti-oad", "--device", "sim:ti-oad?mtu=185",
                                           samples.appendingPathComponent("oad-app-9596.bin").path, "--json"])
        XCTAssertEqual(result.status, 0, result.transcript)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(report["status"] as? String, "verified")
        XCTAssertEqual(report["device_holds"] as? [String], ["installed"])
        XCTAssertEqual(report["phases_done"] as? [String], ["transfer", "enable"])
    }

    func testADamagedImageIsRefusedBeforeAnythingIsSent() throws {
        let result = try DFUKitBinary.run(["flash", "--profile", "ti-oad", "--device", "sim:ti-oad",
                                           samples.appendingPathComponent("oad-app-damaged-crc.bin").path])
        XCTAssertEqual(result.status, 65, result.transcript)
        XCTAssertTrue(result.stderr.contains("fails its file format's own checks: file_format check failed: crc32: the header says "
                                             + "0x902fb805, bytes 12 to 9604 give 0x2e9e6c37"), result.transcript)
        XCTAssertTrue(result.stderr.contains("nothing was sent to the device"), result.transcript)
        XCTAssertFalse(result.stderr.contains("connecting"), result.transcript)
    }
}
