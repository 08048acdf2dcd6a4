import DFUPackage
import Foundation
import XCTest

/// Renesas/Dialog SUOTA images (`mkimage single`): the 64-byte "pQ" header against the
/// published layout (mkimage.c `create_single_image`, image.h `struct image_header`), and the
/// samples firmware-samples/make-suota-samples.py wrote from it.
final class SUOTAImageTests: XCTestCase {
    private static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("firmware-samples/dialog")

    private func sample(_ name: String) -> String { Self.samples.appendingPathComponent(name).path }

    /// Code 01 02 03, version "6.0.14", timestamp 0x66322EC0 (2024-05-01 12:00 UTC), as mkimage
    /// lays the header out: every multi-byte field little-endian, unused bytes 0xFF.
    func testHeaderEncodesAsMkimageLaysItOut() {
        let header = SUOTAImageHeader(code: [0x01, 0x02, 0x03], version: "6.0.14", timestamp: 0x6632_2EC0)
        let golden: [UInt8] = [
            0x70, 0x51,                          // signature "pQ"
            0xAA,                                // valid flag: STATUS_VALID_IMAGE
            0xFF,                                // image id
            0x03, 0x00, 0x00, 0x00,              // code size 3
            0x1D, 0x80, 0xBC, 0x55,              // CRC-32 0x55BC801D of 01 02 03
            0x36, 0x2E, 0x30, 0x2E, 0x31, 0x34,  // "6.0.14"
            0x00,                                // snprintf's NUL
            0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,  // rest of the 16 version bytes
            0xC0, 0x2E, 0x32, 0x66,              // timestamp 1714564800
            0x00,                                // flags: not encrypted
        ] + [UInt8](repeating: 0xFF, count: 31)  // reserved
        XCTAssertEqual(header.encoded, golden)
        XCTAssertEqual(header.encoded.count, SUOTAImageHeader.size)
        XCTAssertEqual(try SUOTAImageHeader(decoding: golden), header)
        XCTAssertEqual(header.version, "6.0.14")
    }

    func testHeaderDecodesEveryFieldAndRefusesFewerThan64Bytes() throws {
        var bytes = SUOTAImageHeader(code: [UInt8](repeating: 7, count: 300), version: "1.2.3-rc.1",
                                     timestamp: 1_717_243_200, flags: .encrypted).encoded
        bytes[3] = 0x05
        let header = try SUOTAImageHeader(decoding: bytes + [1, 2, 3])
        XCTAssertEqual(header.codeSize, 300)
        XCTAssertEqual(header.imageID, 5)
        XCTAssertEqual(header.version, "1.2.3-rc.1")
        XCTAssertEqual(header.timestamp, 1_717_243_200)
        XCTAssertEqual(header.flags, .encrypted)
        XCTAssertEqual(header.flags.summary, "encrypted")
        XCTAssertEqual(SUOTAImageFlags(rawValue: 0x83).summary, "encrypted, signed, unknown bits 0x80")
        XCTAssertThrowsError(try SUOTAImageHeader(decoding: Array(bytes.prefix(63)))) { error in
            XCTAssertEqual(error as? SUOTAImageHeaderError, .tooShort(63))
        }
        // A 16-character version is cut to 15 and the NUL, as snprintf does.
        XCTAssertEqual(SUOTAImageHeader(code: [], version: "0123456789ABCDEFGH", timestamp: 0).version, "0123456789ABCDE")
    }

    func testTheValidSampleOpensAsAStandaloneImageForTheDialogProfile() throws {
        let package = try FirmwarePackage.open(path: sample("app-v1.img"))
        XCTAssertEqual(package.format, .standalone)
        try package.requireIntact()
        let image = try XCTUnwrap(package.images.first)
        XCTAssertEqual(image.profile, "dialog-suota")
        XCTAssertEqual(image.version, "1.0.0")
        XCTAssertEqual(image.data.count, 5064)
        let standalone = try XCTUnwrap(image.standalone)
        XCTAssertEqual(standalone.format, "dialog-suota")
        XCTAssertEqual(standalone.checks.map(\.passed), [true, true, true])
        let details = Dictionary(uniqueKeysWithValues: standalone.details.map { ($0.key, $0.value) })
        XCTAssertEqual(details["code size"], "5000 bytes")
        XCTAssertEqual(details["timestamp"], "1714564800 (2024-05-01T12:00:00Z)")
        XCTAssertEqual(details["flags"], "0x00 (none)")
        XCTAssertEqual(details["header crc32"], "0x7c830d4c")
        XCTAssertEqual(details["xor"], "0x" + String(format: "%02X", image.data.reduce(UInt8(0), ^))
                           + " (the SUOTA client appends it: 5065 bytes go to the device)")
    }

    func testEveryBlockBoundarySampleIsIntact() throws {
        for (name, size) in [("block-minus-one.img", 478), ("block-exact.img", 479), ("block-plus-one.img", 480),
                             ("app-v2.img", 12_409)] {
            let package = try FirmwarePackage.open(path: sample(name))
            XCTAssertNoThrow(try package.requireIntact(), name)
            XCTAssertEqual(package.images.first?.data.count, size, name)
        }
    }

    /// One code byte flipped after mkimage computed the CRC: refused before any byte is sent.
    func testADamagedImageIsRefusedWithTheCRCItFailed() throws {
        let package = try FirmwarePackage.open(path: sample("damaged-crc.img"))
        XCTAssertFalse(package.isIntact)
        XCTAssertThrowsError(try package.requireIntact()) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("image 'application': does not match its own header: file_format check failed: "
                                               + "crc32: the header says 0x7c830d4c, the code's CRC-32 is 0x4a3fd79c"), message)
        }
    }

    func testATruncatedImageFailsItsSizeAndCRC() throws {
        let package = try FirmwarePackage.open(path: sample("truncated.img"))
        let checks = try XCTUnwrap(package.images.first?.standalone?.checks)
        XCTAssertEqual(checks.map(\.passed), [true, false, false])
        XCTAssertTrue(checks[1].detail.contains("code size 5000 = 5064 bytes, but the file has 4964"), checks[1].detail)
        XCTAssertThrowsError(try package.requireIntact())
    }

    func testAFileShorterThanTheHeaderIsReadAsDamagedNotRejected() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("short.img", bytes: [0x70, 0x51, 0xAA, 0xFF, 0x10])
        let package = try FirmwarePackage.open(path: path)
        let checks = try XCTUnwrap(package.images.first?.standalone?.checks)
        XCTAssertEqual(checks.count, 1)
        XCTAssertFalse(checks[0].passed)
        XCTAssertTrue(checks[0].detail.contains("fewer than the 64-byte SUOTA image header"), checks[0].detail)
        XCTAssertThrowsError(try package.requireIntact())
    }

    func testAZeroCodeSizeFailsTheSizeCheck() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("empty.img", bytes: SUOTAImageHeader(code: [], version: "1", timestamp: 0).encoded)
        let checks = try XCTUnwrap(try FirmwarePackage.open(path: path).images.first?.standalone?.checks)
        XCTAssertFalse(checks[1].passed)
        XCTAssertTrue(checks[1].detail.contains("code size is 0"), checks[1].detail)
    }

    /// The CRC of an encrypted image covers the clear code: not checked (skip), never passed.
    func testAnEncryptedImagesCRCIsNotChecked() throws {
        let directory = try TemporaryDirectory()
        let code = [UInt8](repeating: 0x5A, count: 32)
        var header = SUOTAImageHeader(code: code, version: "2.0", timestamp: 0, flags: .encrypted)
        header.crc32 = 0x1234_5678
        let path = try directory.write("encrypted.img", bytes: header.encoded + code)
        let package = try FirmwarePackage.open(path: path)
        let checks = try XCTUnwrap(package.images.first?.standalone?.checks)
        XCTAssertEqual(checks.map(\.checked), [true, true, false])
        XCTAssertTrue(checks[2].detail.contains("encrypted"), checks[2].detail)
        XCTAssertNoThrow(try package.requireIntact())
    }

    func testInspectShowsTheHeaderAndEveryCheck() throws {
        let text = try PackageInspection.inspect(path: sample("damaged-crc.img")).renderText()
        XCTAssertTrue(text.contains("format:  standalone-image") || text.contains("dialog-suota (Renesas/Dialog SUOTA image"), text)
        XCTAssertTrue(text.contains("  version: 1.0.0"), text)
        XCTAssertTrue(text.contains("  profile: dialog-suota"), text)
        XCTAssertTrue(text.contains("  timestamp: 1714564800 (2024-05-01T12:00:00Z)"), text)
        XCTAssertTrue(text.contains("  ok   file_format: size: 64-byte header + 5000 bytes of code = 5064 bytes"), text)
        XCTAssertTrue(text.contains("  FAIL file_format: crc32: the header says 0x7c830d4c"), text)
        XCTAssertTrue(text.contains("FAILS ITS CHECKS"), text)
    }
}
