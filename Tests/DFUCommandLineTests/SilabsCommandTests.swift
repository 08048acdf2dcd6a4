import XCTest

/// `dfukit` with GBL files: flashed over sim:silabs-ota, refused before upload when damaged,
/// inspected and verified with a key.
final class SilabsCommandTests: XCTestCase {
    private let samples = DFUKitBinary.repositoryRoot.appendingPathComponent("firmware-samples/silabs").path

    func testAPlainFileFlashesVerified() throws {
        let result = try DFUKitBinary.run(["flash", "--profile", "silabs-ota", "--device", "sim:silabs-ota",
                                           samples + "/app-plain.gbl", "--json"])
        XCTAssertEqual(result.status, 0, result.transcript)
        XCTAssertTrue(result.stdout.contains("\"status\":\"verified\""), result.transcript)
        XCTAssertTrue(result.stdout.contains("\"device_holds\":[\"installed\"]"), result.transcript)
    }

    func testADamagedFileIsRefusedBeforeAnythingIsSent() throws {
        for (name, words) in [("app-bad-crc.gbl", "GBL end tag says CRC-32"), ("app-truncated.gbl", "the file is truncated")] {
            let result = try DFUKitBinary.run(["flash", "--profile", "silabs-ota", "--device", "sim:silabs-ota",
                                               samples + "/" + name])
            XCTAssertEqual(result.status, 65, result.transcript)
            XCTAssertTrue(result.stderr.contains("fails its file format's own checks"), result.transcript)
            XCTAssertTrue(result.stderr.contains(words), result.transcript)
            XCTAssertTrue(result.stderr.contains("nothing was sent to the device"), result.transcript)
        }
    }

    /// A bootloader without a key fails a signed GBL's signature at 0x03, after the whole upload:
    /// said before the radio when the user says the bootloader has none; sent when not known.
    func testASignedFileForABootloaderWithoutAKeyIsRefusedBeforeTheRadio() throws {
        let refused = try DFUKitBinary.run(["flash", "--profile", "silabs-ota", "--device", "sim:silabs-ota",
                                            "--set", "bootloader_key=none", samples + "/app-signed.gbl"])
        XCTAssertEqual(refused.status, 65, refused.transcript)
        XCTAssertTrue(refused.stderr.contains("the GBL is signed and the device's bootloader holds no key"), refused.transcript)
        XCTAssertTrue(refused.stderr.contains("nothing was sent to the device"), refused.transcript)
        let plain = try DFUKitBinary.run(["flash", "--profile", "silabs-ota", "--device", "sim:silabs-ota",
                                          "--set", "bootloader_key=none", samples + "/app-plain.gbl"])
        XCTAssertEqual(plain.status, 0, plain.transcript)
    }

    func testVerifyWithTheSigningKey() throws {
        let key = samples + "/gbl-signing-key-THROWAWAY.pub.pem"
        let signed = try DFUKitBinary.run(["package", "verify", "--key", key, samples + "/app-signed.gbl"])
        XCTAssertEqual(signed.status, 0, signed.transcript)
        let unsigned = try DFUKitBinary.run(["package", "verify", "--key", key, samples + "/app-plain.gbl"])
        XCTAssertNotEqual(unsigned.status, 0, unsigned.transcript)
        XCTAssertTrue(unsigned.stdout.contains("signature missing") || unsigned.stderr.contains("signature missing"),
                      unsigned.transcript)
    }
}
