import Foundation
import XCTest

/// `dfukit package verify` (and `package inspect`) on packages made by nrfutil 6.1.7 and
/// adafruit-nrfutil (firmware-samples/nordic), with the throwaway keys made next to them.
final class PackageVerifyCommandTests: XCTestCase {
    private static let samples = DFUKitBinary.repositoryRoot.appendingPathComponent("firmware-samples/nordic").path
    private static func sample(_ name: String) -> String { samples + "/" + name }
    private static let rightKey = sample("test-signing-key-THROWAWAY.pub.pem")
    private static let wrongKey = sample("wrong-key-THROWAWAY.pub.pem")

    func testSignedPackageWithTheRightKeyVerifies() throws {
        let result = try DFUKitBinary.run(["package", "verify", Self.sample("sd-bl-app-signed.zip"), "--key", Self.rightKey])
        XCTAssertEqual(result.status, 0, result.transcript)
        XCTAssertEqual(result.stderr, "")
        for line in ["format:  nordic-secure", "image softdevice_bootloader:", "image application:",
                     "  ok   hash: byte-reversed SHA-256 of sd_bl.bin matches the init packet",
                     "  ok   sizes: sd_size 12288, bl_size 6152, app_size 0; sd_bl.bin has 18440 bytes",
                     "  ok   signature: ECDSA_P256_SHA256 signature over the InitCommand verifies with the given key",
                     "result:  verified"] {
            XCTAssertTrue(result.stdout.contains(line + "\n"), "missing '\(line)':\n\(result.stdout)")
        }
    }

    func testWrongKeyExits65NamingImageAndCheck() throws {
        let result = try DFUKitBinary.run(["package", "verify", Self.sample("app-signed.zip"), "--key", Self.wrongKey])
        XCTAssertEqual(result.status, 65, result.transcript)
        XCTAssertTrue(result.stdout.contains("  FAIL signature: signature invalid"), result.stdout)
        XCTAssertEqual(result.stderrLines.count, 1, result.transcript)
        XCTAssertTrue(result.stderr.hasPrefix("error: \(Self.sample("app-signed.zip")), image 'application': "
                                              + "check 'signature' failed: signature invalid"), result.stderr)
    }

    func testUnsignedPackageWithAKeyFailsSignatureMissing() throws {
        let package = Self.sample("app-unsigned.zip")
        let withoutKey = try DFUKitBinary.run(["package", "verify", package])
        XCTAssertEqual(withoutKey.status, 0, withoutKey.transcript)
        XCTAssertTrue(withoutKey.stdout.contains("signatures not checked"), withoutKey.stdout)

        let result = try DFUKitBinary.run(["package", "verify", package, "--key", Self.rightKey])
        XCTAssertEqual(result.status, 65, result.transcript)
        XCTAssertTrue(result.stderr.contains("image 'application': check 'signature' failed: signature missing"), result.stderr)
    }

    func testLegacyPackageVerifiesItsCRC16() throws {
        let result = try DFUKitBinary.run(["package", "verify", Self.sample("legacy-app.zip"), "--json"])
        XCTAssertEqual(result.status, 0, result.transcript)
        let object = try jsonObject(result.stdout)
        XCTAssertEqual(object["format"] as? String, "nordic-legacy")
        XCTAssertEqual(object["passed"] as? Bool, true)
        XCTAssertEqual(object["key_given"] as? Bool, false)
        let image = try XCTUnwrap((object["images"] as? [[String: Any]])?.first)
        let checks = try XCTUnwrap(image["checks"] as? [[String: Any]])
        XCTAssertEqual(checks.compactMap { $0["name"] as? String }, ["init_packet", "crc16", "init_packet_data"])
        XCTAssertEqual(checks.compactMap { $0["passed"] as? Bool }, [true, true, true])
    }

    /// A byte of the .bin flipped, the zip rewritten by Python's `zipfile`.
    func testTamperedBinExits65NamingImageAndHashCheck() throws {
        let directory = try TemporaryDirectory()
        let script = #"""
        import sys, zipfile
        source, output = sys.argv[1], sys.argv[2]
        with zipfile.ZipFile(source) as original, zipfile.ZipFile(output, "w") as copy:
            for info in original.infolist():
                data = bytearray(original.read(info.filename))
                if info.filename == "app.bin":
                    data[100] ^= 0x01
                copy.writestr(info, bytes(data), info.compress_type)
        """#
        _ = try Subprocess.tool("python3", ["-c", script, Self.sample("app-signed.zip"), directory.file("tampered.zip")])

        let result = try DFUKitBinary.run(["package", "verify", "tampered.zip", "--key", Self.rightKey, "--json"],
                                          in: directory.path)
        XCTAssertEqual(result.status, 65, result.transcript)
        XCTAssertTrue(result.stderr.hasPrefix("error: tampered.zip, image 'application': check 'hash' failed: init packet says "),
                      result.stderr)
        let object = try jsonObject(result.stdout)
        XCTAssertEqual(object["passed"] as? Bool, false)
        let checks = try XCTUnwrap(((object["images"] as? [[String: Any]])?.first)?["checks"] as? [[String: Any]])
        let failed = checks.filter { ($0["passed"] as? Bool) == false }.compactMap { $0["name"] as? String }
        XCTAssertEqual(failed, ["hash"])   // the signature covers the init packet, which is untouched

        let inspect = try DFUKitBinary.run(["package", "inspect", "tampered.zip"], in: directory.path)
        XCTAssertEqual(inspect.status, 65, inspect.transcript)
        XCTAssertTrue(inspect.stdout.contains("  hash:    DOES NOT MATCH the .bin\n"), inspect.stdout)
    }

    func testMissingKeyFileAndMissingPackage() throws {
        let noKey = try DFUKitBinary.run(["package", "verify", Self.sample("app-signed.zip"), "--key", "/nonexistent/key.pem"])
        XCTAssertEqual(noKey.status, 74, noKey.transcript)
        XCTAssertTrue(noKey.stderr.hasPrefix("error: /nonexistent/key.pem: cannot read the public key"), noKey.stderr)

        let noPackage = try DFUKitBinary.run(["package", "verify", "missing.zip"])
        XCTAssertEqual(noPackage.status, 65, noPackage.transcript)
        XCTAssertTrue(noPackage.stderr.hasPrefix("error: missing.zip"), noPackage.stderr)

        let usage = try DFUKitBinary.run(["package", "verify"])
        XCTAssertEqual(usage.status, 64, usage.transcript)
    }

    func testInspectShowsNordicInitPacketFields() throws {
        let result = try DFUKitBinary.run(["package", "inspect", Self.sample("app-signed.zip"), "--json"])
        XCTAssertEqual(result.status, 0, result.transcript)
        let object = try jsonObject(result.stdout)
        XCTAssertEqual(object["format"] as? String, "nordic-secure (nrfutil, Secure DFU)")
        let image = try XCTUnwrap((object["images"] as? [[String: Any]])?.first)
        XCTAssertEqual(image["name"] as? String, "application")
        XCTAssertEqual(image["application_size"] as? Int, 24676)
        XCTAssertEqual(image["softdevice_size"] as? Int, 0)
        XCTAssertEqual(image["hash_matches"] as? Bool, true)
        let initPacket = try XCTUnwrap(image["init_packet"] as? [String: Any])
        XCTAssertEqual(initPacket["fw_version"] as? Int, 66051)
        XCTAssertEqual(initPacket["hw_version"] as? Int, 52)
        XCTAssertEqual(initPacket["sd_req"] as? [String], ["0xCB", "0xB7"])
        XCTAssertEqual(initPacket["type"] as? String, "APPLICATION")
        XCTAssertEqual(initPacket["hash_type"] as? String, "SHA256")
        XCTAssertEqual(initPacket["hash"] as? String, "bcb22f6be4d93e0787bdb1b25b23379e7d53f637c85408f26f537fccdc504f95")
        XCTAssertEqual(initPacket["signature_type"] as? String, "ECDSA_P256_SHA256")
        XCTAssertEqual((initPacket["signature"] as? String)?.count, 128)
        XCTAssertEqual(initPacket["is_debug"] as? Bool, false)
        XCTAssertEqual((initPacket["boot_validation"] as? [[String: Any]])?.first?["type"] as? String, "VALIDATE_GENERATED_CRC")
    }
}
