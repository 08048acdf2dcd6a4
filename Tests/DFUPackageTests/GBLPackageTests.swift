@testable import DFUPackage
import XCTest

/// GBL files through `FirmwarePackage.open`, `requireIntact` and `package inspect`.
final class GBLPackageTests: XCTestCase {
    func testPlainFileOpensAsAStandaloneImageForTheSilabsProfile() throws {
        let package = try FirmwarePackage.open(path: GBLSamples.path("app-plain.gbl"))
        XCTAssertEqual(package.format, .standalone)
        XCTAssertEqual(package.images.count, 1)
        let image = package.images[0]
        XCTAssertEqual(image.profile, "silabs-ota")
        XCTAssertEqual(image.version, "0x00010002")
        XCTAssertEqual(image.data, try GBLSamples.bytes("app-plain.gbl"), "the whole file is what is sent")
        XCTAssertNoThrow(try package.requireIntact())
        XCTAssertEqual(image.integrityChecks.map(\.passed), [true, true])
        XCTAssertEqual(image.standalone?.values, ["has_application": 1, "app_type": 0x20, "app_version": 0x0001_0002,
                                                  "app_capabilities": 0, "signed": 0, "encrypted": 0,
                                                  "program_bytes": 6000])
        let signed = try FirmwarePackage.open(path: GBLSamples.path("app-signed.gbl")).images[0]
        XCTAssertEqual(signed.standalone?.values["signed"], 1)
    }

    func testDamagedFilesAreRefusedBeforeUpload() throws {
        for (name, words) in [("app-bad-crc.gbl", "GBL end tag says CRC-32"),
                              ("app-truncated.gbl", "claims 6004 bytes, but only 5916 follow"),
                              ("not-a-gbl.gbl", "does not start with a GBL header tag")] {
            let package = try FirmwarePackage.open(path: GBLSamples.path(name))
            XCTAssertThrowsError(try package.requireIntact(), name) { error in
                let text = String(describing: error)
                XCTAssertTrue(text.contains(words), "\(name): \(text)")
            }
        }
    }

    func testInspectShowsTheApplicationTagsAndChecks() throws {
        let text = try PackageInspection.inspect(path: GBLSamples.path("app-metadata.gbl")).renderText()
        for line in ["format:  silabs-gbl (Silicon Labs Gecko Bootloader file (GBL3))",
                     "version: 0x00010002",
                     "profile: silabs-ota",
                     "gbl: version 3.0, plain",
                     "application: type Bluetooth app, version 0x00010002, capabilities 0x00000000, product "
                         + "505152535455565758595a5b5c5d5e5f",
                     "tag @0: header (0x03A617EB), 8 bytes",
                     "tag @52: erase & program data (0xFD0303FD): 6000 bytes at 0x00006000",
                     "tag @6064: metadata (0xF60808F6), 23 bytes",
                     "tag @6095: end (0xFC0404FC), 4 bytes, CRC-32 0x",
                     "padding: 1 bytes after the end tag",
                     "ok   file_format: GBL structure: 5 tags from the header to the end tag",
                     "ok   file_format: GBL end tag CRC-32 0x",
                     "status:  passes its checks"] {
            XCTAssertTrue(text.contains(line), "missing \(line) in\n\(text)")
        }
        let signed = try PackageInspection.inspect(path: GBLSamples.path("app-signed.gbl")).renderText()
        XCTAssertTrue(signed.contains("gbl: version 3.0, signed (ECDSA P-256)"), signed)
        XCTAssertTrue(signed.contains("signature: ECDSA P-256 over the SHA-256 of the tags before it"), signed)
        let unknown = try PackageInspection.inspect(path: GBLSamples.path("app-unknown-tag.gbl"))
        XCTAssertTrue(unknown.isIntact, "an unknown tag is not damage: the CRC covers it")
        XCTAssertFalse(unknown.isFlashable, "but no Gecko bootloader takes the file")
        XCTAssertTrue(unknown.renderText().contains("result:  intact, but NOT FLASHABLE: the Gecko bootloader refuses a file with "
                                                    + "a tag it does not know"), unknown.renderText())
        XCTAssertTrue(unknown.renderText().contains("unknown tags: unknown tag 0x12345678 at 6064: a bootloader that does "
                                                    + "not know a tag refuses the file"), unknown.renderText())
        let damaged = try PackageInspection.inspect(path: GBLSamples.path("app-bad-crc.gbl")).renderText()
        XCTAssertTrue(damaged.contains("FAIL file_format: GBL end tag says CRC-32"), damaged)
        XCTAssertTrue(damaged.contains("FAILS ITS CHECKS"), damaged)
    }
}

/// `package verify --key` on GBL files: Commander's signature verifies with its key only.
final class GBLSignatureVerificationTests: XCTestCase {
    private func verify(_ name: String, key: String) throws -> VerificationCheck? {
        let pem = try String(contentsOfFile: GBLSamples.path(key), encoding: .utf8)
        let package = try FirmwarePackage.open(path: GBLSamples.path(name))
        return PackageVerifier.verify(package, publicKeyPEM: pem).images.first?.checks.first { $0.check == .signature }
    }

    func testSignedFileVerifiesWithItsKeyAndUnsignedOneIsMissingIt() throws {
        let signed = try XCTUnwrap(try verify("app-signed.gbl", key: "gbl-signing-key-THROWAWAY.pub.pem"))
        XCTAssertTrue(signed.passed, signed.detail)
        XCTAssertEqual(signed.detail, "ECDSA P-256 signature of app-signed.gbl verifies with the given key")
        let unsigned = try XCTUnwrap(try verify("app-plain.gbl", key: "gbl-signing-key-THROWAWAY.pub.pem"))
        XCTAssertFalse(unsigned.passed)
        XCTAssertEqual(unsigned.detail, "signature missing: app-plain.gbl is not signed")
    }

    func testAnotherKeyDoesNotVerify() throws {
        let other = MCUbootSamples.directory + "/ecdsa-p256-THROWAWAY.pub.pem"
        let pem = try String(contentsOfFile: other, encoding: .utf8)
        let package = try FirmwarePackage.open(path: GBLSamples.path("app-signed.gbl"))
        let check = PackageVerifier.verify(package, publicKeyPEM: pem).images.first?.checks.first { $0.check == .signature }
        XCTAssertEqual(check?.passed, false)
        XCTAssertEqual(check?.detail, "signature invalid: the ECDSA P-256 signature does not verify with the given key")
    }
}
