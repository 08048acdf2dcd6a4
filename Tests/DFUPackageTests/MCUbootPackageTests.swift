import DFUBytes
import DFUPackage
import Foundation
import XCTest

/// Bare MCUboot images and nRF Connect SDK `dfu_application.zip` packages as `FirmwarePackage`s:
/// integrity checks, verification with keys, inspection, broken manifests.
final class MCUbootPackageTests: XCTestCase {
    private func verify(_ path: String, key: String?) throws -> PackageVerification {
        PackageVerifier.verify(try FirmwarePackage.open(path: path),
                               publicKeyPEM: try key.map { name throws in try MCUbootSamples.key(name) })
    }

    private func checkNames(_ verification: PackageVerification) -> [String] {
        verification.images.first?.checks.map(\.name) ?? []
    }

    func testBareImageIsAPackageOfOneImage() throws {
        let package = try FirmwarePackage.open(path: MCUbootSamples.ecdsa)
        XCTAssertEqual(package.format, .mcuboot)
        XCTAssertEqual(package.manifest, .bareMCUbootImage)
        XCTAssertEqual(package.images.map(\.name), ["image-0"])
        let image = package.images[0]
        XCTAssertEqual(image.fileName, "app-ecdsa-p256.bin")
        XCTAssertEqual(image.version, "1.2.3+4")
        XCTAssertEqual(image.profile, "")
        XCTAssertEqual(image.mcubootImageIndex, 0)
        XCTAssertTrue(image.isMCUboot)
        XCTAssertNil(image.initPacket)
        // The SMP upload sends the whole file; its `sha` is the SHA-256 of the file, not the TLV.
        XCTAssertTrue(image.data == (try MCUbootSamples.bytes(MCUbootSamples.ecdsa)))
        XCTAssertEqual(image.size, 41623)
        XCTAssertEqual(image.sha256, SHA256.digest(image.data).hexString)
        XCTAssertEqual(image.mcubootImage?.imageHash?.hexString,
                       "dbe392348d6d5e8f734aad4e53dad630d6d242734f87ab296cb03bc5e6340f81")
        XCTAssertNotEqual(image.sha256, image.mcubootImage?.imageHash?.hexString)
        XCTAssertEqual(image.integrityChecks.map(\.check), [.mcubootImage, .imageHash])
        XCTAssertTrue(image.integrityChecks.allSatisfy(\.passed), "\(image.integrityChecks)")
        XCTAssertEqual(image.integrityChecks[1].detail,
                       "SHA256 TLV dbe392348d6d5e8f734aad4e53dad630d6d242734f87ab296cb03bc5e6340f81 is the SHA-256 "
                       + "of header, payload (41472 bytes)")
        XCTAssertTrue(package.isIntact)
        XCTAssertNoThrow(try package.requireIntact())
    }

    func testECDSASignedImageWithRightAndWrongKey() throws {
        let right = try verify(MCUbootSamples.ecdsa, key: "ecdsa-p256")
        XCTAssertEqual(checkNames(right), ["mcuboot_image", "image_hash", "signature", "key_hash"])
        XCTAssertTrue(right.passed, right.renderText())
        XCTAssertEqual(right.images[0].check(.signature)?.detail,
                       "ECDSA P-256 signature (ECDSASIG (0x22)) over the hashed range verifies with the given key")

        let wrong = try verify(MCUbootSamples.ecdsa, key: "wrong-ecdsa-p256")
        XCTAssertFalse(wrong.passed)
        XCTAssertEqual(wrong.failures.map(\.check.name), ["signature", "key_hash"])
        XCTAssertEqual(wrong.images[0].check(.signature)?.detail,
                       "signature invalid: the ECDSA P-256 signature does not verify with the given key")
        XCTAssertTrue(wrong.images[0].check(.keyHash)?.detail.hasPrefix(
            "KEYHASH TLV says ebc568638d3d495dfb21cee2438d0626a0373e2c528253fe0e86f0ba1f92a92d, the given key's SHA-256 is ") == true)
        guard case let .verificationFailed(path, image, check, detail)? =
                catchPackageError({ () throws(PackageError) in try wrong.requireVerified() }) else {
            return XCTFail("expected verificationFailed")
        }
        XCTAssertEqual([path, image, check], [MCUbootSamples.ecdsa, "image-0", "signature"])
        XCTAssertTrue(detail.hasPrefix("signature invalid"), detail)

        let otherAlgorithm = try verify(MCUbootSamples.ecdsa, key: "ed25519")
        XCTAssertTrue(otherAlgorithm.images[0].check(.signature)?.detail
            .hasPrefix("signature invalid: the given key cannot check an ECDSA P-256 signature") == true)
    }

    func testEd25519SignedImageWithRightAndWrongKey() throws {
        let right = try verify(MCUbootSamples.ed25519, key: "ed25519")
        XCTAssertTrue(right.passed, right.renderText())
        XCTAssertEqual(right.images[0].check(.signature)?.detail,
                       "Ed25519 signature (ED25519 (0x24)) over the image's SHA-256 digest verifies with the given key")
        XCTAssertEqual(right.images[0].check(.keyHash)?.detail,
                       "KEYHASH TLV 277dc2fe99ee6bd5d488c2ebfd038f180ebcf0ccd3e87804caa1025d395bd5ec is the SHA-256 of the given key")

        let wrong = try verify(MCUbootSamples.ed25519, key: "wrong-ed25519")
        XCTAssertEqual(wrong.failures.map(\.check.name), ["signature", "key_hash"])
    }

    func testProtectedTLVImageVerifies() throws {
        let verification = try verify(MCUbootSamples.protectedTLVs, key: "ecdsa-p256")
        XCTAssertTrue(verification.passed, verification.renderText())
        let package = try FirmwarePackage.open(path: MCUbootSamples.protectedTLVs)
        XCTAssertEqual(package.images[0].version, "2.0.1+77")
        XCTAssertEqual(package.images[0].integrityChecks[1].detail,
                       "SHA256 TLV 744301cfe02cd4fc3c33fdd3df9d7acda9202d6ac75993f3888aed06af5a53d2 is the SHA-256 "
                       + "of header, payload and protected TLVs (34423 bytes)")
    }

    func testUnsignedImageWithAKeyFailsSignatureMissing() throws {
        let withoutKey = try verify(MCUbootSamples.unsigned, key: nil)
        XCTAssertTrue(withoutKey.passed)
        XCTAssertEqual(checkNames(withoutKey), ["mcuboot_image", "image_hash"])

        let withKey = try verify(MCUbootSamples.unsigned, key: "ecdsa-p256")
        XCTAssertEqual(checkNames(withKey), ["mcuboot_image", "image_hash", "signature"])
        XCTAssertEqual(withKey.failures.map(\.check.name), ["signature"])
        XCTAssertEqual(withKey.images[0].check(.signature)?.detail,
                       "signature missing: the image has no signature TLV (ECDSASIG, ED25519, RSA2048 or RSA3072)")
    }

    func testTamperedPayloadFailsTheHashCheck() throws {
        let directory = try TemporaryDirectory()
        var bytes = try MCUbootSamples.bytes(MCUbootSamples.ecdsa)
        bytes[0x1234] ^= 0x01
        let path = try directory.write("tampered.bin", bytes: bytes)
        let package = try FirmwarePackage.open(path: path)
        XCTAssertFalse(package.isIntact)
        XCTAssertEqual(package.images[0].mismatches.map(\.check), [.imageHash])
        guard case let .imageMismatch(_, image, mismatches)? =
                catchPackageError({ () throws(PackageError) in try package.requireIntact() }) else {
            return XCTFail("expected imageMismatch")
        }
        XCTAssertEqual(image, "image-0")
        XCTAssertTrue(mismatches[0].description.hasPrefix(
            "image_hash check failed: SHA256 TLV says dbe392348d6d5e8f734aad4e53dad630d6d242734f87ab296cb03bc5e6340f81, "),
            mismatches[0].description)
        let message = "\(PackageError.imageMismatch(path: path, image: image, mismatches: mismatches))"
        XCTAssertTrue(message.contains("image 'image-0': does not match its MCUboot header and TLVs: image_hash check failed"),
                      message)

        let verification = PackageVerifier.verify(package, publicKeyPEM: try MCUbootSamples.key("ecdsa-p256"))
        XCTAssertEqual(verification.failures.map(\.check.name), ["image_hash", "signature"])
    }

    func testBrokenBareImagesAreRefusedWithTheOffset() throws {
        let directory = try TemporaryDirectory()
        let good = try MCUbootSamples.bytes(MCUbootSamples.unsigned)
        let truncated = try directory.write("truncated.bin", bytes: Array(good.prefix(5000)))
        guard case let .badMCUbootImage(path, error)? =
                catchPackageError({ () throws(PackageError) in try FirmwarePackage.open(path: truncated) }) else {
            return XCTFail("expected badMCUbootImage")
        }
        XCTAssertEqual(path, truncated)
        XCTAssertEqual(error, .payloadPastEnd(payloadEnd: 0x7A0C, fileSize: 5000))
        XCTAssertEqual("\(PackageError.badMCUbootImage(path: path, error: error))",
                       "\(truncated): not a valid MCUboot image: offset 0xc: ih_hdr_size + ih_img_size = 31244 bytes, "
                       + "but the file has 5000: the image is truncated. Sign the image again with imgtool.")

        let noTLVs = try directory.write("no-tlvs.bin", bytes: Array(good.prefix(0x7A0C)))
        guard case .badMCUbootImage(_, .missingTLVArea(0x7A0C, 0x6907, 0x7A0C))? =
                catchPackageError({ () throws(PackageError) in try FirmwarePackage.open(path: noTLVs) }) else {
            return XCTFail("expected missingTLVArea")
        }

        // Without the magic, a .bin is neither an MCUboot image nor a zip.
        let random = try directory.write("random.bin", bytes: Array(good[0x200..<0x1200]))
        guard case .notAZip? = catchPackageError({ () throws(PackageError) in try FirmwarePackage.open(path: random) }) else {
            return XCTFail("expected notAZip")
        }
    }

    func testNRFConnectZipAsGenerateZipWritesIt() throws {
        let package = try FirmwarePackage.open(path: MCUbootSamples.nrfConnectZip)
        XCTAssertEqual(package.format, .nrfConnectDFU)
        XCTAssertEqual(package.manifest.format, .nrfConnectDFU)
        XCTAssertEqual(package.manifest.formatVersion, 1)
        let manifest = try XCTUnwrap(package.manifest.nrfConnect)
        XCTAssertEqual(manifest.name, "dfukit-sample")
        XCTAssertEqual(manifest.time, 1_740_787_200)
        XCTAssertEqual(manifest.files, [NRFConnectManifestFile(
            file: "app_update.bin", imageIndex: 0, size: 41623, version: MCUbootImageVersion("1.2.3+4"),
            loadAddress: 0xC200, type: "application", board: "nrf52840dk/nrf52840", soc: "nrf52840",
            primarySlot: 1, secondarySlot: 2)])
        XCTAssertEqual(package.images.map(\.name), ["image-0"])
        let image = package.images[0]
        XCTAssertEqual(image.fileName, "app_update.bin")
        XCTAssertEqual(image.version, "1.2.3+4")
        XCTAssertEqual(image.mcubootImageIndex, 0)
        XCTAssertTrue(image.data == (try MCUbootSamples.bytes(MCUbootSamples.ecdsa)))
        XCTAssertEqual(image.integrityChecks.map(\.check), [.mcubootImage, .size, .version, .imageHash])
        XCTAssertTrue(image.integrityChecks.allSatisfy(\.passed), "\(image.integrityChecks)")

        let verification = try verify(MCUbootSamples.nrfConnectZip, key: "ecdsa-p256")
        XCTAssertTrue(verification.passed, verification.renderText())
        XCTAssertEqual(verification.format, .nrfConnectDFU)
        XCTAssertFalse(try verify(MCUbootSamples.nrfConnectZip, key: "wrong-ecdsa-p256").passed)
    }

    func testNRFConnectZipWithWrongManifestValuesOrAnImageThatIsNotMCUboot() throws {
        let directory = try TemporaryDirectory()
        let manifest = try NordicSamples.entry("manifest.json", of: MCUbootSamples.nrfConnectZip)
        let edited = String(decoding: manifest, as: UTF8.self)
            .replacingOccurrences(of: "\"1.2.3+4\"", with: "\"1.2.4\"")
            .replacingOccurrences(of: "\"size\": 41623", with: "\"size\": 41000")
        let path = try NordicSamples.tampered(MCUbootSamples.nrfConnectZip, in: directory, name: "edited.zip",
                                              changes: ["manifest.json": { _ in Array(edited.utf8) }])
        let image = try FirmwarePackage.open(path: path).images[0]
        XCTAssertEqual(image.mismatches.map(\.description), [
            "size mismatch: manifest says 41000 bytes, image has 41623 bytes",
            "version mismatch: manifest says 1.2.4+0, image has 1.2.3+4",
        ])

        let notMCUboot = try NordicSamples.tampered(MCUbootSamples.nrfConnectZip, in: directory, name: "raw.zip",
                                                    changes: ["app_update.bin": { Array($0[0x200...]) }])
        let package = try FirmwarePackage.open(path: notMCUboot)
        XCTAssertNil(package.images[0].mcubootImage)
        let data = package.images[0].data
        let found = UInt32(data[0]) | UInt32(data[1]) << 8 | UInt32(data[2]) << 16 | UInt32(data[3]) << 24
        XCTAssertEqual(package.images[0].mcubootError, .badMagic(found: found))
        XCTAssertEqual(package.images[0].integrityChecks.map(\.check), [.mcubootImage])
        XCTAssertTrue(package.images[0].problems[0].hasPrefix(
            "mcuboot_image check failed: app_update.bin is not a valid MCUboot image: offset 0x0: magic is "),
            package.images[0].problems[0])
        let verification = PackageVerifier.verify(package, publicKeyPEM: try MCUbootSamples.key("ecdsa-p256"))
        XCTAssertEqual(verification.failures.map(\.check.name), ["mcuboot_image", "signature"])
    }

    private func parse(_ json: String) throws(PackageError) -> PackageManifest {
        try PackageManifest.parse(Array(json.utf8), packagePath: "dfu.zip")
    }

    func testNRFConnectManifestVariants() throws {
        // Integers as numbers, hex strings or decimal strings; null version; sorted by image_index.
        let manifest = try parse("""
            {"format-version": 0, "files": [
              {"file": "net.bin", "image_index": 1, "load_address": "0x1000000", "version_MCUBOOT": null, "size": "100"},
              {"file": "app.bin", "image_index": "0", "slot_index_primary": "1", "slot_index_secondary": "2"}]}
            """)
        XCTAssertEqual(manifest.format, .nrfConnectDFU)
        XCTAssertEqual(manifest.formatVersion, 0)
        let files = try XCTUnwrap(manifest.nrfConnect?.files)
        XCTAssertEqual(files.map(\.file), ["app.bin", "net.bin"])
        XCTAssertEqual(files.map(\.imageName), ["image-0", "image-1"])
        XCTAssertEqual(files[1].loadAddress, 0x100_0000)
        XCTAssertEqual(files[1].size, 100)
        XCTAssertNil(files[1].version)
        XCTAssertEqual(files[0].primarySlot, 1)
        // No image_index: image 0.
        XCTAssertEqual(try parse(#"{"files": [{"file": "a.bin"}]}"#).nrfConnect?.files.first?.imageIndex, 0)

        let broken: [(String, String)] = [
            (#"{"files": []}"#, "files"),
            (#"{"files": {}}"#, "files"),
            (#"{"files": [{"image_index": "0"}]}"#, "files[0].file"),
            (#"{"files": [{"file": "a.bin", "image_index": "zero"}]}"#, "files[0].image_index"),
            (#"{"files": [{"file": "a.bin", "image_index": 300}]}"#, "files[0].image_index"),
            (#"{"files": [{"file": "a.bin", "version_MCUBOOT": "1.2.x"}]}"#, "files[0].version_MCUBOOT"),
            (#"{"files": [{"file": "a.bin", "size": -1}]}"#, "files[0].size"),
            (#"{"files": [{"file": "a.bin"}, {"file": "b.bin", "image_index": "0"}]}"#, "files[1].image_index"),
        ]
        for (json, key) in broken {
            guard case let .badManifest(_, foundKey, _)? = catchPackageError({ () throws(PackageError) in try parse(json) }) else {
                XCTFail("expected badManifest for \(json)")
                continue
            }
            XCTAssertEqual(foundKey, key, json)
        }
        guard case .unsupportedFormat? =
                catchPackageError({ () throws(PackageError) in try parse(#"{"format-version": 7, "files": [{"file": "a"}]}"#) })
        else { return XCTFail("expected unsupportedFormat") }
        guard case .unsafeEntryName? =
                catchPackageError({ () throws(PackageError) in try parse(#"{"files": [{"file": "../a.bin"}]}"#) })
        else { return XCTFail("expected unsafeEntryName") }
    }

    func testInspectionShowsHeaderTLVsAndChecks() throws {
        let inspection = try PackageInspection.inspect(path: MCUbootSamples.protectedTLVs)
        XCTAssertTrue(inspection.isIntact)
        let text = inspection.renderText()
        for line in [
            "format:  mcuboot (bare image signed by imgtool)",
            "image image-0:",
            "  file:    app-protected-tlvs.bin",
            "  version: 2.0.1+77",
            "  image index: 0",
            "    magic:            0x96f3b83d",
            "    load_addr:        0x00010000",
            "    hdr_size:         0x200 (512)",
            "    protect_tlv_size: 0x73 (115)",
            "    img_size:         0x8404 (33796)",
            "    flags:            0x00000100 (ROM_FIXED)",
            "  protected TLVs (magic 0x6908, offset 0x8604, 115 bytes):",
            "    SEC_CNT (0x50), 4 bytes: 07000000",
            "    0x01a0, 4 bytes: cafe0001",
            "  TLVs (magic 0x6907, offset 0x8677, 150 bytes):",
            "    SHA256 (0x10), 32 bytes: 744301cfe02cd4fc3c33fdd3df9d7acda9202d6ac75993f3888aed06af5a53d2",
            "    KEYHASH (0x1), 32 bytes: ebc568638d3d495dfb21cee2438d0626a0373e2c528253fe0e86f0ba1f92a92d",
            "  image_hash: the SHA256 TLV matches the image",
            "  status:  passes its checks",
            "result:  intact",
        ] {
            XCTAssertTrue(text.contains(line + "\n"), "missing '\(line)' in:\n\(text)")
        }

        let json = try JSONSerialization.jsonObject(with: Data(
            try PackageInspection.inspect(path: MCUbootSamples.nrfConnectZip).renderJSON().utf8)) as? [String: Any]
        XCTAssertEqual(json?["format"] as? String, "nrf-connect-dfu (nRF Connect SDK dfu_application.zip, format-version 1)")
        let image = try XCTUnwrap((json?["images"] as? [[String: Any]])?.first)
        XCTAssertEqual(image["hash_matches"] as? Bool, true)
        let mcuboot = try XCTUnwrap(image["mcuboot"] as? [String: Any])
        XCTAssertEqual(mcuboot["version"] as? String, "1.2.3+4")
        XCTAssertEqual((mcuboot["header"] as? [String: Any])?["img_size"] as? Int, 0xA000)
        XCTAssertEqual((mcuboot["manifest"] as? [String: Any])?["board"] as? String, "nrf52840dk/nrf52840")
        let tlvs = try XCTUnwrap(mcuboot["tlvs"] as? [[String: Any]])
        XCTAssertEqual(tlvs.compactMap { $0["type"] as? Int }, [0x10, 0x01, 0x22])
        XCTAssertEqual(tlvs.compactMap { $0["type_name"] as? String }, ["SHA256", "KEYHASH", "ECDSASIG"])
        XCTAssertEqual(tlvs.first?["value"] as? String, "dbe392348d6d5e8f734aad4e53dad630d6d242734f87ab296cb03bc5e6340f81")
    }
}
