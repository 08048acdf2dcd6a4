import DFUBytes
import DFUPackage
import Foundation
import XCTest

/// Packages made by nrfutil 6.1.7 and adafruit-nrfutil (firmware-samples/nordic), opened,
/// checked and verified. Expected values are what `nrfutil pkg display` printed for the same
/// files (firmware-samples/nordic/nrfutil-pkg-display.txt).
final class NordicPackageTests: XCTestCase {
    static let applicationHash = "bcb22f6be4d93e0787bdb1b25b23379e7d53f637c85408f26f537fccdc504f95"

    private func initPacket(_ image: FirmwareImage?, file: StaticString = #filePath,
                            line: UInt = #line) throws -> NordicInitPacket {
        try XCTUnwrap(image?.nordicInitPacket, "no decoded init packet", file: file, line: line)
    }

    func testUnsignedApplicationAsNrfutilDisplaysIt() throws {
        let package = try FirmwarePackage.open(path: NordicSamples.unsignedApplication)
        XCTAssertEqual(package.format, .nordicSecure)
        XCTAssertEqual(package.manifest.format, .nordicSecure)
        XCTAssertEqual(package.images.map(\.name), ["application"])
        let image = package.images[0]
        XCTAssertEqual(image.fileName, "app.bin")
        XCTAssertEqual(image.size, 24676)
        XCTAssertEqual(image.version, "3")
        XCTAssertEqual(image.profile, "")
        XCTAssertEqual(image.initPacket?.count, 70)
        XCTAssertEqual([image.softDeviceSize, image.bootloaderSize, image.applicationSize], [0, 0, 24676])
        let packet = try initPacket(image)
        XCTAssertEqual(packet.opCode, .initialize)                       // op_code: INIT
        XCTAssertFalse(packet.isSigned)                                  // signature_type: UNSIGNED
        XCTAssertEqual(packet.initCommand.firmwareVersion, 3)            // fw_version: 0x00000003 (3)
        XCTAssertEqual(packet.initCommand.hardwareVersion, 52)           // hw_version 0x00000034 (52)
        XCTAssertEqual(packet.initCommand.softDeviceRequirements, [0xB7]) // sd_req: 0xB7
        XCTAssertEqual(packet.initCommand.type, .application)            // type: APPLICATION
        XCTAssertEqual(packet.initCommand.softDeviceSize, 0)
        XCTAssertEqual(packet.initCommand.bootloaderSize, 0)
        XCTAssertEqual(packet.initCommand.applicationSize, 24676)
        XCTAssertEqual(packet.initCommand.hash?.type, .sha256)
        XCTAssertEqual(packet.initCommand.hash?.bytes.hexString, Self.applicationHash)
        XCTAssertEqual(packet.initCommand.bootValidations.map(\.type), [.generatedCRC])
        XCTAssertEqual(packet.initCommand.isDebug, false)
        XCTAssertTrue(packet.hashMatches(firmware: image.data))
        XCTAssertEqual(image.integrityChecks.map(\.check), [.initPacket, .firmwareType, .hashType, .hash, .sizes])
        XCTAssertTrue(image.integrityChecks.allSatisfy(\.passed), "\(image.integrityChecks)")
        XCTAssertTrue(package.isIntact)
        XCTAssertNoThrow(try package.requireIntact())
    }

    func testSignedApplication() throws {
        let package = try FirmwarePackage.open(path: NordicSamples.signedApplication)
        let packet = try initPacket(package.image(named: "application"))
        XCTAssertTrue(packet.isSignedCommand)
        XCTAssertEqual(packet.signatureType, .ecdsaP256SHA256)
        XCTAssertEqual(packet.signature?.count, 64)
        XCTAssertEqual(packet.initCommand.firmwareVersion, 0x0001_0203)   // fw_version: 0x00010203 (66051)
        XCTAssertEqual(packet.initCommand.softDeviceRequirements, [0xCB, 0xB7])  // sd_req: 0xCB, 0xB7
        XCTAssertEqual(packet.initCommand.hash?.bytes.hexString, Self.applicationHash)
        XCTAssertEqual(package.image(named: "application")?.version, "66051")
        XCTAssertTrue(packet.verifySignature(publicKeyDER: try PEM.decode(try NordicSamples.signingKey()).der))
        XCTAssertNoThrow(try package.requireIntact())
    }

    func testSoftDeviceBootloaderApplicationInSendOrder() throws {
        let package = try FirmwarePackage.open(path: NordicSamples.softDeviceBootloaderApplication)
        XCTAssertEqual(package.images.map(\.name), ["softdevice_bootloader", "application"])
        XCTAssertEqual(package.manifest.nordic?.images.map(\.kind), [.softDeviceBootloader, .application])
        let softDeviceBootloader = package.images[0]
        XCTAssertEqual(softDeviceBootloader.fileName, "sd_bl.bin")
        XCTAssertEqual(softDeviceBootloader.size, 18440)
        XCTAssertEqual(softDeviceBootloader.softDeviceSize, 12288)      // info_read_only_metadata
        XCTAssertEqual(softDeviceBootloader.bootloaderSize, 6152)
        XCTAssertEqual(softDeviceBootloader.applicationSize, 0)
        XCTAssertEqual(softDeviceBootloader.nordicManifestImage?.softDeviceSize, 12288)
        let packet = try initPacket(softDeviceBootloader)
        XCTAssertEqual(packet.initCommand.type, .softDeviceBootloader)   // type: SOFTDEVICE_BOOTLOADER
        XCTAssertEqual(packet.initCommand.firmwareVersion, 2)            // --bootloader-version 2
        XCTAssertEqual(packet.initCommand.softDeviceRequirements, [0xFFFE, 0xB7])
        XCTAssertEqual(packet.initCommand.softDeviceSize, 12288)
        XCTAssertEqual(packet.initCommand.bootloaderSize, 6152)
        XCTAssertEqual(packet.initCommand.applicationSize, 0)
        XCTAssertEqual(packet.initCommand.hash?.bytes.hexString,
                       "5b02450f0fe2bae6463447bba202413432cc66ba52b40fb0a1464034466921e6")
        XCTAssertEqual(packet.initCommand.bootValidations.map(\.type), [.generatedCRC, .generatedCRC])

        let application = package.images[1]
        XCTAssertEqual([application.softDeviceSize, application.bootloaderSize, application.applicationSize], [0, 0, 24676])
        let applicationPacket = try initPacket(application)
        XCTAssertEqual(applicationPacket.initCommand.firmwareVersion, 5)
        XCTAssertEqual(applicationPacket.initCommand.softDeviceRequirements, [0xB7])  // --sd-id 0xB7
        XCTAssertEqual(applicationPacket.initCommand.hash?.bytes.hexString, Self.applicationHash)

        let verification = PackageVerifier.verify(package, publicKeyPEM: try NordicSamples.signingKey())
        XCTAssertTrue(verification.passed, verification.renderText())
        XCTAssertEqual(verification.images.map { $0.checks.map(\.name) }, Array(repeating:
            ["init_packet", "firmware_type", "hash_type", "hash", "sizes", "signature"], count: 2))
    }

    func testSignedBootloader() throws {
        let package = try FirmwarePackage.open(path: NordicSamples.signedBootloader)
        let image = try XCTUnwrap(package.image(named: "bootloader"))
        XCTAssertEqual([image.softDeviceSize, image.bootloaderSize, image.applicationSize], [0, 6152, 0])
        let packet = try initPacket(image)
        XCTAssertEqual(packet.initCommand.type, .bootloader)
        XCTAssertEqual(packet.initCommand.firmwareVersion, 7)
        XCTAssertEqual(packet.initCommand.bootloaderSize, 6152)
        XCTAssertEqual(packet.initCommand.hash?.bytes.hexString,
                       "c02a6d68500c4d470e5c99b88a795a48b12a7d4a5d6c0f08d2567f12e9ed6bf5")
        XCTAssertTrue(PackageVerifier.verify(package, publicKeyPEM: try NordicSamples.signingKey()).passed)
    }

    func testLegacyApplication() throws {
        let package = try FirmwarePackage.open(path: NordicSamples.legacyApplication)
        XCTAssertEqual(package.format, .nordicLegacy)
        XCTAssertEqual(package.manifest.nordic?.legacyDFUVersion, 0.5)
        let image = try XCTUnwrap(package.image(named: "application"))
        XCTAssertEqual(image.fileName, "legacy-app.bin")
        XCTAssertEqual(image.size, 20524)
        XCTAssertEqual(image.applicationSize, 20524)
        let packet = try XCTUnwrap(image.legacyInitPacket)
        XCTAssertEqual(packet.deviceType, 0x52)
        XCTAssertEqual(packet.firmwareCRC16, 16963)   // manifest init_packet_data.firmware_crc16
        XCTAssertEqual(image.nordicManifestImage?.legacyInitPacketData,
                       LegacyInitPacketData(deviceType: 82, deviceRevision: 65535, applicationVersion: 4_294_967_295,
                                            softDeviceRequirements: [65534], firmwareCRC16: 16963))
        XCTAssertEqual(image.integrityChecks.map(\.check), [.initPacket, .crc16, .initPacketData])
        XCTAssertTrue(image.integrityChecks.allSatisfy(\.passed))
        XCTAssertNoThrow(try package.requireIntact())
        XCTAssertTrue(PackageVerifier.verify(package, publicKeyPEM: nil).passed)

        let withKey = PackageVerifier.verify(package, publicKeyPEM: try NordicSamples.signingKey())
        XCTAssertFalse(withKey.passed)
        XCTAssertTrue(withKey.image(named: "application")?.check(.signature)?.detail.hasPrefix("signature missing") ?? false)
    }

    // MARK: - Verification with keys

    func testRightKeyVerifiesWrongKeyFails() throws {
        let package = try FirmwarePackage.open(path: NordicSamples.signedApplication)
        let right = PackageVerifier.verify(package, publicKeyPEM: try NordicSamples.signingKey())
        XCTAssertTrue(right.passed, right.renderText())
        XCTAssertTrue(right.keyGiven)
        XCTAssertNoThrow(try right.requireVerified())

        let wrong = PackageVerifier.verify(package, publicKeyPEM: try NordicSamples.wrongKey())
        XCTAssertFalse(wrong.passed)
        XCTAssertEqual(wrong.failures.map(\.image), ["application"])
        XCTAssertEqual(wrong.failures.map(\.check.check), [.signature])
        let error = catchPackageError { () throws(PackageError) in try wrong.requireVerified() }
        guard case let .verificationFailed(path, image, check, detail)? = error else {
            return XCTFail("expected verificationFailed, got \(String(describing: error))")
        }
        XCTAssertEqual(path, NordicSamples.signedApplication)
        XCTAssertEqual(image, "application")
        XCTAssertEqual(check, "signature")
        XCTAssertTrue(detail.hasPrefix("signature invalid"), detail)
        XCTAssertTrue(error?.description.contains("image 'application': check 'signature' failed: signature invalid") ?? false)
        // Without a key the signature is not checked, so a signed package still verifies.
        XCTAssertTrue(PackageVerifier.verify(package, publicKeyPEM: nil).passed)
    }

    func testUnsignedPackageWithAKeyFailsSignatureMissing() throws {
        let package = try FirmwarePackage.open(path: NordicSamples.unsignedApplication)
        XCTAssertTrue(PackageVerifier.verify(package, publicKeyPEM: nil).passed)
        let verification = PackageVerifier.verify(package, publicKeyPEM: try NordicSamples.signingKey())
        let check = try XCTUnwrap(verification.image(named: "application")?.check(.signature))
        XCTAssertFalse(check.passed)
        XCTAssertTrue(check.detail.hasPrefix("signature missing"), check.detail)
        guard case .verificationFailed(_, "application", "signature", _)? = catchPackageError({ () throws(PackageError) in
            try verification.requireVerified()
        }) else { return XCTFail("unsigned package verified with a key") }
    }

    func testUnreadableKeyFailsEverySignatureCheck() throws {
        let package = try FirmwarePackage.open(path: NordicSamples.softDeviceBootloaderApplication)
        let verification = PackageVerifier.verify(package, publicKeyPEM: "not a key")
        XCTAssertEqual(verification.failures.count, 2)
        XCTAssertTrue(verification.failures.allSatisfy { $0.check.detail.hasPrefix("public key unreadable") })
    }

    func testDFUKitPackageVerifiesAndWithAKeyHasNoSignature() throws {
        let directory = try TemporaryDirectory()
        let package = try FirmwarePackage.open(path: try PackageFixtures.makeValidPackage(in: directory))
        for image in package.images {
            XCTAssertEqual([image.softDeviceSize, image.bootloaderSize], [0, 0])
            XCTAssertEqual(image.applicationSize, image.size)
            XCTAssertNil(image.initPacket)
            XCTAssertNil(image.decodedInitPacket)
        }
        let verification = PackageVerifier.verify(package, publicKeyPEM: nil)
        XCTAssertTrue(verification.passed)
        XCTAssertEqual(verification.images.map { $0.checks.map(\.name) }, [["size", "sha256", "crc32"], ["size", "sha256", "crc32"]])
        let withKey = PackageVerifier.verify(package, publicKeyPEM: try NordicSamples.signingKey())
        XCTAssertFalse(withKey.passed)
        XCTAssertTrue(withKey.failures.allSatisfy { $0.check.detail.hasPrefix("signature missing") })
    }

    // MARK: - Tampering

    func testTamperedBinFailsTheHashCheckNamingTheImage() throws {
        let directory = try TemporaryDirectory()
        let path = try NordicSamples.tampered(NordicSamples.softDeviceBootloaderApplication, in: directory, name: "t.zip",
                                              changes: ["sd_bl.bin": { NordicSamples.flip($0, at: 5000) }])
        let package = try FirmwarePackage.open(path: path)
        XCTAssertFalse(package.isIntact)
        XCTAssertTrue(package.image(named: "application")?.matchesManifest ?? false)
        let damaged = try XCTUnwrap(package.image(named: "softdevice_bootloader"))
        XCTAssertEqual(damaged.mismatches.map(\.check), [.hash])

        let error = catchPackageError { () throws(PackageError) in try package.requireIntact() }
        guard case let .imageMismatch(_, image, mismatches)? = error else {
            return XCTFail("expected imageMismatch, got \(String(describing: error))")
        }
        XCTAssertEqual(image, "softdevice_bootloader")
        XCTAssertEqual(mismatches.map(\.check), [.hash])
        let message = error?.description ?? ""
        XCTAssertTrue(message.contains("image 'softdevice_bootloader': does not match its init packet: hash check failed"), message)
        XCTAssertTrue(message.contains("do not flash"), message)

        let verification = PackageVerifier.verify(package, publicKeyPEM: try NordicSamples.signingKey())
        XCTAssertEqual(verification.failures.map { "\($0.image) \($0.check.name)" }, ["softdevice_bootloader hash"])
        guard case .verificationFailed(_, "softdevice_bootloader", "hash", _)? = catchPackageError({ () throws(PackageError) in
            try verification.requireVerified()
        }) else { return XCTFail("tampered package verified") }
    }

    func testTruncatedBinFailsHashAndSizes() throws {
        let directory = try TemporaryDirectory()
        let path = try NordicSamples.tampered(NordicSamples.unsignedApplication, in: directory, name: "t.zip",
                                              changes: ["app.bin": { Array($0.dropLast(4)) }])
        let image = try XCTUnwrap(try FirmwarePackage.open(path: path).image(named: "application"))
        XCTAssertEqual(image.mismatches.map(\.check), [.hash, .sizes])
        XCTAssertTrue(image.problems.last?.contains("app_size is 24676, expected 24672") ?? false, "\(image.problems)")
    }

    func testTamperedSignatureFailsOnlyTheSignatureCheck() throws {
        let directory = try TemporaryDirectory()
        let path = try NordicSamples.tampered(NordicSamples.signedApplication, in: directory, name: "t.zip",
                                              changes: ["app.dat": { NordicSamples.flip($0, at: -1) }])
        let package = try FirmwarePackage.open(path: path)
        XCTAssertNoThrow(try package.requireIntact())   // the hash still matches: only a key can tell
        let verification = PackageVerifier.verify(package, publicKeyPEM: try NordicSamples.signingKey())
        XCTAssertEqual(verification.failures.map(\.check.check), [.signature])
        XCTAssertTrue(verification.failures.first?.check.detail.hasPrefix("signature invalid") ?? false)
    }

    func testTamperedInitCommandBreaksTheSignature() throws {
        // Byte 10 of the signed app.dat is InitCommand.fw_version's first byte (0x83): 0x82 makes it 0x010202.
        let directory = try TemporaryDirectory()
        let path = try NordicSamples.tampered(NordicSamples.signedApplication, in: directory, name: "t.zip",
                                              changes: ["app.dat": { NordicSamples.flip($0, at: 10) }])
        let package = try FirmwarePackage.open(path: path)
        let packet = try initPacket(package.image(named: "application"))
        XCTAssertEqual(packet.initCommand.firmwareVersion, 0x0001_0202)
        XCTAssertNoThrow(try package.requireIntact())
        XCTAssertFalse(PackageVerifier.verify(package, publicKeyPEM: try NordicSamples.signingKey()).passed)
    }

    func testUndecodableInitPacketIsRefused() throws {
        let directory = try TemporaryDirectory()
        let path = try NordicSamples.tampered(NordicSamples.unsignedApplication, in: directory, name: "t.zip",
                                              changes: ["app.dat": { Array($0.prefix(20)) }])
        let package = try FirmwarePackage.open(path: path)
        let image = try XCTUnwrap(package.image(named: "application"))
        guard case .undecodable(.malformed(.lengthPastEnd))? = image.decodedInitPacket else {
            return XCTFail("decoded: \(String(describing: image.decodedInitPacket))")
        }
        XCTAssertEqual(image.mismatches.map(\.check), [.initPacket])
        let error = catchPackageError { () throws(PackageError) in try package.requireIntact() }
        XCTAssertTrue(error?.description.contains("init_packet check failed: app.dat does not decode: the init packet is not valid protobuf: offset 2") ?? false,
                      String(describing: error))
    }

    func testWrongTypeForTheManifestKeyIsRefused() throws {
        // The application's init packet listed as a bootloader.
        let directory = try TemporaryDirectory()
        let manifest = #"{"manifest": {"bootloader": {"bin_file": "app.bin", "dat_file": "app.dat"}}}"#
        let path = try NordicSamples.tampered(NordicSamples.unsignedApplication, in: directory, name: "t.zip",
                                              changes: ["manifest.json": { _ in Array(manifest.utf8) }])
        let image = try XCTUnwrap(try FirmwarePackage.open(path: path).image(named: "bootloader"))
        XCTAssertEqual(image.mismatches.map(\.check), [.firmwareType, .sizes])
        XCTAssertEqual(image.bootloaderSize, 24676)
    }

    func testLegacyTamperedBinFailsCRC16() throws {
        let directory = try TemporaryDirectory()
        let path = try NordicSamples.tampered(NordicSamples.legacyApplication, in: directory, name: "t.zip",
                                              changes: ["legacy-app.bin": { NordicSamples.flip($0, at: 0) }])
        let package = try FirmwarePackage.open(path: path)
        let image = try XCTUnwrap(package.image(named: "application"))
        XCTAssertEqual(image.mismatches.map(\.check), [.crc16])
        XCTAssertTrue(image.problems.first?.contains("init packet says 0x4243") ?? false, "\(image.problems)")
        guard case .imageMismatch(_, "application", _)? = catchPackageError({ () throws(PackageError) in
            try package.requireIntact()
        }) else { return XCTFail("tampered legacy package accepted") }
    }

    func testLegacyManifestThatDisagreesWithItsDat() throws {
        let directory = try TemporaryDirectory()
        let path = try NordicSamples.tampered(NordicSamples.legacyApplication, in: directory, name: "t.zip",
                                              changes: ["legacy-app.dat": { NordicSamples.flip($0, at: 0) }])
        let image = try XCTUnwrap(try FirmwarePackage.open(path: path).image(named: "application"))
        XCTAssertEqual(image.mismatches.map(\.check), [.initPacketData])
        XCTAssertTrue(image.problems.first?.contains("device_type: manifest 82, .dat 83") ?? false, "\(image.problems)")
    }

    // MARK: - Manifests

    func testNordicManifestErrorsNameTheKey() {
        let cases: [(String, String, String)] = [
            (#"{"manifest": []}"#, "manifest", "expected an object"),
            (#"{"manifest": {}}"#, "manifest", "lists no image"),
            (#"{"manifest": {"firmware": {}}}"#, "manifest.firmware", "unknown image kind"),
            (#"{"manifest": {"application": {"dat_file": "a.dat"}}}"#, "manifest.application.bin_file", "missing"),
            (#"{"manifest": {"application": {"bin_file": 1, "dat_file": "a.dat"}}}"#, "manifest.application.bin_file", "expected a string"),
            (#"{"manifest": {"application": {"bin_file": "a.bin"}}}"#, "manifest.application.dat_file", "missing"),
            (#"{"manifest": {"softdevice_bootloader": {"bin_file": "a.bin", "dat_file": "a.dat", "info_read_only_metadata": {"sd_size": -1}}}}"#,
             "manifest.softdevice_bootloader.info_read_only_metadata.sd_size", "not a size"),
            (#"{"manifest": {"dfu_version": "0.5", "application": {"bin_file": "a.bin", "dat_file": "a.dat"}}}"#,
             "manifest.dfu_version", "expected a number"),
        ]
        for (text, key, fragment) in cases {
            guard case let .badManifest(_, foundKey, problem)? = catchPackageError({ () throws(PackageError) in
                try PackageManifest.parse(Array(text.utf8), packagePath: "n.zip")
            }) else { XCTFail("\(text): expected badManifest"); continue }
            XCTAssertEqual(foundKey, key, text)
            XCTAssertTrue(problem.contains(fragment), "\(text): \(problem)")
        }
        let unsafe = #"{"manifest": {"application": {"bin_file": "../a.bin", "dat_file": "a.dat"}}}"#
        guard case .unsafeEntryName? = catchPackageError({ () throws(PackageError) in
            try PackageManifest.parse(Array(unsafe.utf8), packagePath: "n.zip")
        }) else { return XCTFail("unsafe bin_file accepted") }
        let newerLegacy = #"{"manifest": {"dfu_version": 0.8, "application": {"bin_file": "a.bin", "dat_file": "a.dat"}}}"#
        guard case .unsupportedFormat? = catchPackageError({ () throws(PackageError) in
            try PackageManifest.parse(Array(newerLegacy.utf8), packagePath: "n.zip")
        }) else { return XCTFail("dfu_version 0.8 accepted") }
    }

    func testManifestImagesAreSortedIntoSendOrder() throws {
        let text = #"""
            {"manifest": {"application": {"bin_file": "a.bin", "dat_file": "a.dat"},
                          "bootloader": {"bin_file": "b.bin", "dat_file": "b.dat"},
                          "softdevice": {"bin_file": "s.bin", "dat_file": "s.dat"},
                          "softdevice_bootloader": {"bin_file": "sb.bin", "dat_file": "sb.dat",
                                                    "info_read_only_metadata": {"bl_size": 2, "sd_size": 1}}}}
            """#
        let manifest = try PackageManifest.parse(Array(text.utf8), packagePath: "n.zip")
        XCTAssertEqual(manifest.format, .nordicSecure)
        XCTAssertEqual(manifest.nordic?.images.map(\.name), ["softdevice_bootloader", "softdevice", "bootloader", "application"])
        XCTAssertEqual(manifest.nordic?.images.first?.softDeviceSize, 1)
        XCTAssertEqual(manifest.nordic?.images.first?.bootloaderSize, 2)
    }

    func testMissingDatFileIsReported() throws {
        let directory = try TemporaryDirectory()
        let manifest = #"{"manifest": {"application": {"bin_file": "app.bin", "dat_file": "other.dat"}}}"#
        let path = try NordicSamples.tampered(NordicSamples.unsignedApplication, in: directory, name: "t.zip",
                                              changes: ["manifest.json": { _ in Array(manifest.utf8) }])
        let error = catchPackageError { () throws(PackageError) in try FirmwarePackage.open(path: path) }
        XCTAssertEqual(error, .missingImageFile(path: path, image: "application", file: "other.dat"))
    }

    // MARK: - Inspection

    func testInspectionTextShowsEveryInitPacketField() throws {
        let text = try PackageInspection.inspect(path: NordicSamples.softDeviceBootloaderApplication).renderText()
        for line in [
            "format:  nordic-secure (nrfutil, Secure DFU)",
            "image softdevice_bootloader:",
            "  sizes:   softdevice 12288, bootloader 6152, application 0",
            "  init packet: sd_bl.dat (150 bytes)",
            "    op_code:         INIT",
            "    signature_type:  ECDSA_P256_SHA256",
            "    fw_version:      0x00000002 (2)",
            "    hw_version:      0x00000034 (52)",
            "    sd_req:          0xFFFE, 0xB7",
            "    type:            SOFTDEVICE_BOOTLOADER",
            "    sd_size:         12288",
            "    bl_size:         6152",
            "    app_size:        0",
            "    hash_type:       SHA256",
            "    hash:            5b02450f0fe2bae6463447bba202413432cc66ba52b40fb0a1464034466921e6 (as stored, little-endian)",
            "    is_debug:        false",
            "    boot_validation: VALIDATE_GENERATED_CRC",
            "  hash:    matches the .bin (byte-reversed SHA-256)",
            "  status:  passes its checks",
            "result:  intact",
        ] {
            XCTAssertTrue(text.contains(line + "\n"), "missing '\(line)' in:\n\(text)")
        }
        let legacy = try PackageInspection.inspect(path: NordicSamples.legacyApplication).renderText()
        for line in ["format:  nordic-legacy (legacy DFU, dfu_version 0.5)", "    device_type:     0x0052",
                     "    device_revision: 0xFFFF", "    app_version:     0xFFFFFFFF (4294967295)",
                     "    sd_req:          0xFFFE", "    crc16:           0x4243", "  crc16:   matches the .bin"] {
            XCTAssertTrue(legacy.contains(line + "\n"), "missing '\(line)' in:\n\(legacy)")
        }
    }

    func testInspectionJSONOfATamperedPackage() throws {
        let directory = try TemporaryDirectory()
        let path = try NordicSamples.tampered(NordicSamples.signedApplication, in: directory, name: "t.zip",
                                              changes: ["app.bin": { NordicSamples.flip($0, at: 1) }])
        let inspection = try PackageInspection.inspect(path: path)
        XCTAssertFalse(inspection.isIntact)
        let json = inspection.renderJSON()
        for fragment in [#""format": "nordic-secure (nrfutil, Secure DFU)""#, #""application_size": 24676"#,
                         #""init_packet_file": "app.dat""#, #""kind": "secure""#, #""signature_type": "ECDSA_P256_SHA256""#,
                         #""fw_version": 66051"#, #""type": "APPLICATION""#, #""hash": "\#(Self.applicationHash)""#,
                         #""hash_matches": false"#, #""matches_manifest": false"#] {
            XCTAssertTrue(json.contains(fragment), "missing \(fragment) in:\n\(json)")
        }
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let image = try XCTUnwrap((object["images"] as? [[String: Any]])?.first)
        let initPacket = try XCTUnwrap(image["init_packet"] as? [String: Any])
        XCTAssertEqual(initPacket["sd_req"] as? [String], ["0xCB", "0xB7"])
        XCTAssertEqual(initPacket["is_debug"] as? Bool, false)
        XCTAssertEqual(image["hash_matches"] as? Bool, false)
    }
}
