import Foundation
import XCTest

/// `dfukit package inspect` and `package verify` on MCUboot images signed by imgtool 2.5.0 and
/// an nRF Connect SDK dfu_application.zip (firmware-samples/mcuboot), with the throwaway keys
/// made next to them.
final class MCUbootCommandTests: XCTestCase {
    private static let samples = DFUKitBinary.repositoryRoot.appendingPathComponent("firmware-samples/mcuboot").path
    private static func sample(_ name: String) -> String { samples + "/" + name }
    private static func key(_ name: String) -> String { sample(name + "-THROWAWAY.pub.pem") }

    func testInspectBareImageShowsHeaderAndEveryTLV() throws {
        let result = try DFUKitBinary.run(["package", "inspect", "app-ecdsa-p256.bin"], in: Self.samples)
        XCTAssertEqual(result.status, 0, result.transcript)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(Array(result.stdoutLines.prefix(20)), [
            "package: app-ecdsa-p256.bin",
            "format:  mcuboot (bare image signed by imgtool)",
            "image image-0:",
            "  file:    app-ecdsa-p256.bin",
            "  size:    41623 bytes",
            "  sha256:  " + (try ReferenceDigest.sha256(ofFile: Self.sample("app-ecdsa-p256.bin"))),
            "  crc32:   " + (try ReferenceDigest.crc32(ofFile: Self.sample("app-ecdsa-p256.bin"))),
            "  version: 1.2.3+4",
            "  image index: 0",
            "  mcuboot header:",
            "    magic:            0x96f3b83d",
            "    load_addr:        0x00000000",
            "    hdr_size:         0x200 (512)",
            "    protect_tlv_size: 0x0 (0)",
            "    img_size:         0xa000 (40960)",
            "    flags:            0x00000000 (none)",
            "    version:          1.2.3+4",
            "  TLVs (magic 0x6907, offset 0xa200, 151 bytes):",
            "    SHA256 (0x10), 32 bytes: dbe392348d6d5e8f734aad4e53dad630d6d242734f87ab296cb03bc5e6340f81",
            "    KEYHASH (0x1), 32 bytes: ebc568638d3d495dfb21cee2438d0626a0373e2c528253fe0e86f0ba1f92a92d",
        ], result.stdout)
        XCTAssertTrue(result.stdout.contains("    ECDSASIG (0x22), 71 bytes: 3045022100ac91d44b"), result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix("""
              image_hash: the SHA256 TLV matches the image
              status:  passes its checks
            result:  intact

            """), result.stdout)
    }

    func testInspectNRFConnectZipAsJSON() throws {
        let result = try DFUKitBinary.run(["package", "inspect", Self.sample("dfu_application.zip"), "--json"])
        XCTAssertEqual(result.status, 0, result.transcript)
        let object = try jsonObject(result.stdout)
        XCTAssertEqual(object["format"] as? String, "nrf-connect-dfu (nRF Connect SDK dfu_application.zip, format-version 1)")
        let image = try XCTUnwrap((object["images"] as? [[String: Any]])?.first)
        XCTAssertEqual(image["name"] as? String, "image-0")
        XCTAssertEqual(image["file"] as? String, "app_update.bin")
        XCTAssertEqual(image["version"] as? String, "1.2.3+4")
        XCTAssertEqual(image["matches_manifest"] as? Bool, true)
        let mcuboot = try XCTUnwrap(image["mcuboot"] as? [String: Any])
        XCTAssertEqual(mcuboot["image_index"] as? Int, 0)
        XCTAssertEqual(mcuboot["hash_tlv"] as? String, "dbe392348d6d5e8f734aad4e53dad630d6d242734f87ab296cb03bc5e6340f81")
        XCTAssertEqual(mcuboot["hash_algorithm"] as? String, "SHA-256")
        let header = try XCTUnwrap(mcuboot["header"] as? [String: Any])
        XCTAssertEqual(header["hdr_size"] as? Int, 512)
        XCTAssertEqual(header["img_size"] as? Int, 40960)
        let manifest = try XCTUnwrap(mcuboot["manifest"] as? [String: Any])
        XCTAssertEqual(manifest["load_address"] as? Int, 0xC200)
        XCTAssertEqual(manifest["slot_index_secondary"] as? Int, 2)
        let tlvs = try XCTUnwrap(mcuboot["tlvs"] as? [[String: Any]])
        XCTAssertEqual(tlvs.compactMap { $0["type_name"] as? String }, ["SHA256", "KEYHASH", "ECDSASIG"])
        XCTAssertEqual(tlvs.compactMap { $0["length"] as? Int }, [32, 32, 71])
        let checks = try XCTUnwrap(image["checks"] as? [[String: Any]])
        XCTAssertEqual(checks.compactMap { $0["name"] as? String }, ["mcuboot_image", "size", "version", "image_hash"])
    }

    func testVerifySignedImagesWithTheRightKeys() throws {
        for (image, key, signature) in [
            ("app-ecdsa-p256.bin", "ecdsa-p256", "ECDSA P-256 signature (ECDSASIG (0x22)) over the hashed range"),
            ("app-ed25519.bin", "ed25519", "Ed25519 signature (ED25519 (0x24)) over the image's SHA-256 digest"),
            ("app-protected-tlvs.bin", "ecdsa-p256", "ECDSA P-256 signature (ECDSASIG (0x22)) over the hashed range"),
            ("dfu_application.zip", "ecdsa-p256", "ECDSA P-256 signature (ECDSASIG (0x22)) over the hashed range"),
        ] {
            let result = try DFUKitBinary.run(["package", "verify", Self.sample(image), "--key", Self.key(key)])
            XCTAssertEqual(result.status, 0, result.transcript)
            XCTAssertEqual(result.stderr, "", result.transcript)
            for line in ["  ok   signature: \(signature) verifies with the given key", "result:  verified"] {
                XCTAssertTrue(result.stdout.contains(line + "\n"), "\(image): missing '\(line)':\n\(result.stdout)")
            }
            XCTAssertTrue(result.stdout.contains("  ok   key_hash: KEYHASH TLV "), result.stdout)
        }
    }

    func testWrongKeyExits65NamingImageAndCheck() throws {
        for (image, key) in [("app-ecdsa-p256.bin", "wrong-ecdsa-p256"), ("app-ed25519.bin", "wrong-ed25519"),
                             ("dfu_application.zip", "wrong-ecdsa-p256"), ("app-ecdsa-p256.bin", "ed25519")] {
            let result = try DFUKitBinary.run(["package", "verify", image, "--key", Self.key(key)], in: Self.samples)
            XCTAssertEqual(result.status, 65, result.transcript)
            XCTAssertTrue(result.stdout.contains("  FAIL signature: signature invalid"), result.stdout)
            XCTAssertTrue(result.stdout.contains("  FAIL key_hash: KEYHASH TLV says "), result.stdout)
            XCTAssertEqual(result.stderrLines.count, 1, result.transcript)
            XCTAssertTrue(result.stderr.hasPrefix("error: \(image), image 'image-0': check 'signature' failed: signature invalid"),
                          result.stderr)
        }
    }

    func testUnsignedImageVerifiesWithoutAKeyAndFailsSignatureMissingWithOne() throws {
        let withoutKey = try DFUKitBinary.run(["package", "verify", Self.sample("app-unsigned.bin")])
        XCTAssertEqual(withoutKey.status, 0, withoutKey.transcript)
        XCTAssertTrue(withoutKey.stdout.contains("signatures not checked"), withoutKey.stdout)

        let result = try DFUKitBinary.run(["package", "verify", "app-unsigned.bin", "--key", Self.key("ecdsa-p256"), "--json"],
                                          in: Self.samples)
        XCTAssertEqual(result.status, 65, result.transcript)
        XCTAssertEqual(result.stderr, "error: app-unsigned.bin, image 'image-0': check 'signature' failed: signature missing: "
                       + "the image has no signature TLV (ECDSASIG, ED25519, RSA2048 or RSA3072). Do not flash this package; rebuild it, "
                       + "or verify it with the key it was signed with.\n")
        let object = try jsonObject(result.stdout)
        XCTAssertEqual(object["format"] as? String, "mcuboot")
        let checks = try XCTUnwrap(((object["images"] as? [[String: Any]])?.first)?["checks"] as? [[String: Any]])
        XCTAssertEqual(checks.compactMap { $0["name"] as? String }, ["mcuboot_image", "image_hash", "signature"])
        XCTAssertEqual(checks.compactMap { $0["passed"] as? Bool }, [true, true, false])
    }

    /// Encrypted images: the hash (and an ECDSA signature) cover the plaintext, which only the
    /// device sees: reported as not checked, never as passed or failed; an Ed25519 signature over
    /// the digest still verifies; a flash goes ahead with a note.
    func testEncryptedImagesSayWhatCannotBeChecked() throws {
        let ecdsa = try DFUKitBinary.run(["package", "verify", "app-encrypted-ecdsa-p256.bin", "--key", Self.key("ecdsa-p256"),
                                          "--json"], in: Self.samples)
        XCTAssertEqual(ecdsa.status, 0, ecdsa.transcript)
        let checks = try XCTUnwrap(((try jsonObject(ecdsa.stdout)["images"] as? [[String: Any]])?.first)?["checks"]
                                   as? [[String: Any]])
        XCTAssertEqual(checks.compactMap { $0["name"] as? String }, ["mcuboot_image", "image_hash", "signature", "key_hash"])
        XCTAssertEqual(checks.compactMap { $0["checked"] as? Bool }, [true, false, false, true])

        let ed25519 = try DFUKitBinary.run(["package", "verify", "app-encrypted-ed25519.bin", "--key", Self.key("ed25519")],
                                           in: Self.samples)
        XCTAssertEqual(ed25519.status, 0, ed25519.transcript)
        XCTAssertTrue(ed25519.stdout.contains("  skip image_hash: app-encrypted-ed25519.bin is encrypted (ENCRYPTED_AES128): "
                                              + "its SHA256 TLV covers the plaintext"), ed25519.stdout)
        XCTAssertTrue(ed25519.stdout.contains("  ok   signature: Ed25519 signature (ED25519 (0x24)) over the image's SHA-256 "
                                              + "digest verifies"), ed25519.stdout)
        XCTAssertTrue(ed25519.stdout.contains("result:  verified (not checked: image-0 image_hash)"), ed25519.stdout)
        let wrongKey = try DFUKitBinary.run(["package", "verify", "app-encrypted-ed25519.bin", "--key", Self.key("wrong-ed25519")],
                                            in: Self.samples)
        XCTAssertEqual(wrongKey.status, 65, wrongKey.transcript)

        let inspect = try DFUKitBinary.run(["package", "inspect", "app-encrypted-ecdsa-p256.bin"], in: Self.samples)
        XCTAssertEqual(inspect.status, 0, inspect.transcript)
        XCTAssertTrue(inspect.stdout.contains("  image_hash: not checked: app-encrypted-ecdsa-p256.bin is encrypted"),
                      inspect.stdout)

        let flash = try DFUKitBinary.run(["flash", "--profile", "mcumgr-smp", "--device", "sim:mcumgr-smp",
                                          "app-encrypted-ecdsa-p256.bin", "--json"], in: Self.samples)
        XCTAssertEqual(flash.status, 0, flash.transcript)
        XCTAssertTrue(flash.stderr.hasPrefix("note: image 'image-0': image_hash not checked before sending: "), flash.stderr)
    }

    /// An image as Intel HEX (imgtool --hex-addr, Zephyr's zephyr.signed.hex) is read as the
    /// image at its lowest address; a HEX file that holds no image is refused with what to do.
    func testIntelHexImages() throws {
        let verify = try DFUKitBinary.run(["package", "verify", "app-ecdsa-p256.hex", "--key", Self.key("ecdsa-p256")],
                                          in: Self.samples)
        XCTAssertEqual(verify.status, 0, verify.transcript)
        XCTAssertTrue(verify.stdout.contains("format:  mcuboot"), verify.stdout)
        XCTAssertTrue(verify.stdout.contains("  ok   signature: ECDSA P-256 signature"), verify.stdout)
        let flash = try DFUKitBinary.run(["flash", "--profile", "mcumgr-smp", "--device", "sim:mcumgr-smp",
                                          "app-ecdsa-p256.hex", "--json"], in: Self.samples)
        XCTAssertEqual(flash.status, 0, flash.transcript)
        XCTAssertEqual(try jsonObject(flash.stdout)["status"] as? String, "verified")

        let notAnImage = try DFUKitBinary.run(["package", "inspect", "demo-app.hex"],
                                              in: DFUKitBinary.repositoryRoot.appendingPathComponent("firmware-samples").path)
        XCTAssertEqual(notAnImage.status, 65, notAnImage.transcript)
        XCTAssertEqual(notAnImage.stderr, "error: demo-app.hex: an Intel HEX file with no MCUboot image at its lowest address "
                       + "(0x27000) is not a package. Make one of it with `dfukit package create --profile P --version V "
                       + "--output OUT.zip demo-app.hex`.\n")
    }

    func testTamperedImageFailsTheHashCheck() throws {
        let directory = try TemporaryDirectory()
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.sample("app-ed25519.bin"))))
        bytes[0x4000] ^= 0x80
        try directory.write("tampered.bin", bytes: bytes)

        let verify = try DFUKitBinary.run(["package", "verify", "tampered.bin"], in: directory.path)
        XCTAssertEqual(verify.status, 65, verify.transcript)
        XCTAssertTrue(verify.stderr.hasPrefix("error: tampered.bin, image 'image-0': check 'image_hash' failed: SHA256 TLV says "
                                              + "4119db9d676f72cbe5f1ff352b060321298d53a26099242655b8c02766faf82f, "),
                      verify.stderr)

        let inspect = try DFUKitBinary.run(["package", "inspect", "tampered.bin"], in: directory.path)
        XCTAssertEqual(inspect.status, 65, inspect.transcript)
        XCTAssertTrue(inspect.stdout.contains("  image_hash: DOES NOT MATCH the image\n  status:  FAILS ITS CHECKS\n"),
                      inspect.stdout)
        XCTAssertTrue(inspect.stdout.hasSuffix("result:  DAMAGED; do not flash this package\n"), inspect.stdout)
    }

    func testTruncatedImageExits65WithTheOffset() throws {
        let directory = try TemporaryDirectory()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.sample("app-ecdsa-p256.bin"))))
        try directory.write("cut.bin", bytes: Array(bytes.prefix(0xA200 + 0x50)))
        for command in ["inspect", "verify"] {
            let result = try DFUKitBinary.run(["package", command, "cut.bin"], in: directory.path)
            XCTAssertEqual(result.status, 65, result.transcript)
            XCTAssertEqual(result.stdout, "", result.transcript)
            XCTAssertEqual(result.stderr, "error: cut.bin: not a valid MCUboot image: offset 0xa202: TLV area size 151 is out "
                           + "of range (at least 4, at most the 80 bytes left in the file). Sign the image again with imgtool.\n")
        }
    }

    func testHelpNamesMCUbootImages() throws {
        let inspect = try DFUKitBinary.run(["package", "inspect", "--help"])
        XCTAssertEqual(inspect.status, 0, inspect.transcript)
        XCTAssertTrue(inspect.stdout.contains("or a bare MCUboot image signed by imgtool"), inspect.stdout)
        let verify = try DFUKitBinary.run(["package", "verify", "--help"])
        XCTAssertTrue(verify.stdout.contains("the KEYHASH TLV must name the key"), verify.stdout)
    }
}
