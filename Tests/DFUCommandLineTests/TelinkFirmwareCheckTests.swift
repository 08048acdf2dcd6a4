import Foundation
import XCTest

/// Issue 21, limits before the radio: the package's length and CRC-32 trailer checks are the
/// Telink SDK's firmware check, which an application may turn off
/// (`blc_ota_setOtaFirmwareCheckEnable(0)`); `--set firmware_check=0` tells DFUKit so, and the
/// package check then leaves them out, as the device does.
final class TelinkFirmwareCheckTests: XCTestCase {
    /// A Telink image of a firmware built without the check: the mark, the size at 0x18, a
    /// length that is not 16n + 4 and no CRC-32 trailer.
    private func uncheckedImage(in directory: TemporaryDirectory) throws -> String {
        let sample = DFUKitBinary.repositoryRoot.appendingPathComponent("firmware-samples/telink/app-v1.1.0.bin")
        var bytes = Array(try Data(contentsOf: sample).dropLast(4)) + [UInt8](repeating: 0x11, count: 7)
        let size = UInt32(bytes.count)
        for index in 0..<4 { bytes[0x18 + index] = UInt8((size >> (8 * UInt32(index))) & 0xFF) }
        return try directory.write("unchecked.bin", bytes: bytes)
    }

    func testFirmwareCheckOffWaivesTheLengthAndTrailerChecks() throws {
        let directory = try TemporaryDirectory()
        let image = try uncheckedImage(in: directory)
        let flash = ["flash", "--profile", "telink-ota", image, "--set", "version=1.1.0", "--json"]
        // The SDK's default device checks them: refused before the radio, as damage.
        let refused = try DFUKitBinary.run(flash + ["--device", "sim:telink-ota"])
        XCTAssertEqual(refused.status, 65, refused.transcript)
        XCTAssertTrue(refused.stderr.contains("not 16n + 4"), refused.transcript)
        XCTAssertTrue(refused.stderr.contains("nothing was sent to the device"), refused.transcript)
        // A device without the check takes it, and firmware_check=0 says the device is one.
        let taken = try DFUKitBinary.run(flash + ["--device", "sim:telink-ota?firmware-check=0", "--set", "firmware_check=0"])
        XCTAssertEqual(taken.status, 0, taken.transcript)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(taken.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["bytes"] as? Int, 16391)
    }
}
