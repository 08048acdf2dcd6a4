import DFUBytes
import DFUPackage
import Foundation
import XCTest

/// Telink BLE SDK images (`TelinkBinaryFormat`) and fwupd's Telink archive, with the samples of
/// `firmware-samples/make-telink-samples.py` and images built here.
final class TelinkImageTests: XCTestCase {
    static let directory: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("firmware-samples/telink").path

    private func sample(_ name: String) -> String { Self.directory + "/" + name }

    /// A valid image: `body` bytes (a multiple of 16, at least 0x20) then the CRC-32 trailer.
    static func image(body: Int, fill: UInt8 = 0x5A) -> [UInt8] {
        var bytes = [UInt8](repeating: fill, count: body)
        bytes.replaceSubrange(8..<12, with: Array("KNLT".utf8))
        let size = UInt32(body + 4)
        bytes.replaceSubrange(0x18..<0x1C, with: [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24)])
        let crc = ~CRC32.checksum(bytes)
        return bytes + [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 24)]
    }

    /// CRC-32/JAMCRC against the catalogue's check value, and against the trailer the sample
    /// generator (Python zlib) wrote: two implementations agree.
    func testFirmwareCRCIsJAMCRC() throws {
        XCTAssertEqual(TelinkImageLayout.firmwareCRC(ArraySlice(Array("123456789".utf8))), 0x340B_C6D9)
        XCTAssertEqual(UInt64(TelinkImageLayout.firmwareCRC(ArraySlice(Array("123456789".utf8)))),
                       CRCCatalogue.algorithm(named: "CRC-32/JAMCRC")?.check)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: sample("app-v1.1.0.bin"))))
        XCTAssertEqual(TelinkImageLayout.trailer(bytes), TelinkImageLayout.firmwareCRC(bytes.dropLast(4)))
        XCTAssertEqual(TelinkImageLayout.trailer(bytes), 0xB9C0_6067, "the generator's zlib.crc32 ^ 0xFFFFFFFF")
    }

    func testValidSampleIsReadWithEveryCheckPassed() throws {
        let package = try FirmwarePackage.open(path: sample("app-v1.1.0.bin"))
        XCTAssertEqual(package.format, .standalone)
        let image = try XCTUnwrap(package.images.first)
        XCTAssertEqual(image.profile, "telink-ota")
        XCTAssertEqual(image.version, "", "a bare .bin carries no version")
        XCTAssertEqual(image.size, 16_388)
        let checks = image.integrityChecks
        XCTAssertEqual(checks.count, 4)
        XCTAssertTrue(checks.allSatisfy { $0.passed && $0.check == .fileFormat }, checks.map(\.description).joined(separator: "\n"))
        XCTAssertNoThrow(try package.requireIntact())
        let details = Dictionary(uniqueKeysWithValues: (image.standalone?.details ?? []).map { ($0.key, $0.value) })
        XCTAssertEqual(details["OTA packets"], "1025 (indexes 0...1024)")
        XCTAssertEqual(details["size field (0x18)"], "16388")
    }

    /// Sizes across the 16-byte packets: only 16n + 4 passes the firmware check's length.
    func testLengthCheckAcrossPacketBoundaries() throws {
        for body in [0x20, 0x30, 16_384, 16_400] {
            let checks = try TelinkBinaryFormat.read(Self.image(body: body), path: "x.bin").checks
            XCTAssertTrue(checks.allSatisfy(\.passed), "\(body + 4): " + checks.map(\.description).joined(separator: "\n"))
        }
        for extra in [0, 1, 3, 5, 15] {
            var bytes = Self.image(body: 16_384).dropLast(4) + [UInt8](repeating: 0xFF, count: extra)
            let size = UInt32(bytes.count)
            bytes.replaceSubrange(0x18..<0x1C, with: [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), 0, 0])
            let checks = try TelinkBinaryFormat.read(Array(bytes), path: "x.bin").checks
            XCTAssertTrue(checks[0].passed && checks[1].passed, "\(size)")
            XCTAssertFalse(checks[2].passed, "\(size) bytes is not 16n + 4")
            XCTAssertTrue(checks[2].detail.contains("not 16n + 4"), checks[2].detail)
        }
    }

    func testDamagedSamplesFailTheCheckThatNamesTheirDamage() throws {
        let expectations = [
            ("damaged-crc.bin", 3, "the image is damaged"),
            ("no-mark.bin", 0, "not the vendor mark 4b4e4c54 (KNLT)"),
            ("wrong-size.bin", 1, "size field at 0x18 says 16404 bytes, the file has 16388"),
        ]
        for (name, failing, words) in expectations {
            let package = try FirmwarePackage.open(path: sample(name))
            let checks = try XCTUnwrap(package.images.first).integrityChecks
            XCTAssertEqual(checks.indices.filter { !checks[$0].passed }, [failing], "\(name): \(checks)")
            XCTAssertTrue(checks[failing].detail.contains(words), checks[failing].detail)
            guard case let .imageMismatch(_, image, mismatches)? = catchPackageError({ () throws(PackageError) in
                try package.requireIntact()
            }) else { return XCTFail("\(name) must be refused before flashing") }
            XCTAssertEqual(image, "application")
            XCTAssertEqual(mismatches.count, 1)
            let message = PackageError.imageMismatch(path: name, image: image, mismatches: mismatches).description
            XCTAssertTrue(message.contains("fails its file format's own checks"), message)
        }
    }

    /// A file shorter than the header is read (checks failed), not thrown at.
    func testTruncatedImageFailsItsChecks() throws {
        let read = try TelinkBinaryFormat.read(Array(Self.image(body: 0x20).prefix(20)), path: "cut.bin")
        XCTAssertTrue(read.checks[0].passed)
        XCTAssertFalse(read.checks[1].passed)
        XCTAssertTrue(read.checks[1].detail.contains("ends before the size field"), read.checks[1].detail)
    }

    func testRecognizedByTheMarkOrByAStartupWordInABinFile() {
        let image = Self.image(body: 0x40)
        XCTAssertTrue(TelinkBinaryFormat.recognizes(head: Array(image.prefix(64)), path: "anything"))
        var unmarked = image
        unmarked.replaceSubrange(8..<12, with: [0, 0, 0, 0])
        XCTAssertFalse(TelinkBinaryFormat.recognizes(head: Array(unmarked.prefix(64)), path: "app.bin"))
        unmarked.replaceSubrange(0x0C..<0x10, with: [0xC0, 0x00, 0x88, 0x00])
        XCTAssertTrue(TelinkBinaryFormat.recognizes(head: Array(unmarked.prefix(64)), path: "app.bin"))
        XCTAssertFalse(TelinkBinaryFormat.recognizes(head: Array(unmarked.prefix(64)), path: "app.hex"))
    }

    // MARK: - fwupd's archive

    func testFwupdArchiveGivesTheImageAndItsVersion() throws {
        let package = try FirmwarePackage.open(path: sample("app-v1.1.0.zip"))
        let image = try XCTUnwrap(package.images.first)
        XCTAssertEqual(image.version, "1.1.0")
        XCTAssertEqual(image.profile, "telink-ota")
        XCTAssertEqual(image.fileName, "firmware.bin")
        XCTAssertEqual(image.data, [UInt8](try Data(contentsOf: URL(fileURLWithPath: sample("app-v1.1.0.bin")))))
        XCTAssertNoThrow(try package.requireIntact())
        let details = (image.standalone?.details ?? []).map(\.key)
        XCTAssertEqual(Array(details.prefix(4)), ["archive", "board", "bootloader_type", "image_version"])
    }

    private func archive(_ manifest: String, image: [UInt8] = TelinkImageTests.image(body: 0x40),
                         entry: String = "firmware.bin") throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory()
        let path = try PackageFixtures.makeZip(in: directory, name: "telink.zip",
                                               entries: [("manifest.json", Array(manifest.utf8)), (entry, image)])
        return (directory, path)
    }

    func testArchiveManifestMistakesAreNamedByKey() throws {
        let file = #"{"file": "firmware.bin", "bootloader_type": "ota-v1", "board": "8208", "image_version": "1.2.3"}"#
        let cases: [(String, String)] = [
            (#"{"files": [\#(file)]}"#, "format-version"),
            (#"{"format-version": 1, "files": [\#(file)]}"#, "format-version 1"),
            (#"{"format-version": 0, "files": [\#(file), \#(file)]}"#, "lists 2 images"),
            (#"{"format-version": 0, "files": [{"file": "firmware.bin", "bootloader_type": "ota-v9", "board": "x", "image_version": "1"}]}"#,
             "files[0].bootloader_type"),
            (#"{"format-version": 0, "files": [{"file": "firmware.bin", "bootloader_type": "beta", "board": "x"}]}"#,
             "files[0].image_version"),
            (#"{"format-version": 0, "files": [{"file": "other.bin", "bootloader_type": "beta", "board": "x", "image_version": "1"}]}"#,
             "other.bin"),
        ]
        for (manifest, words) in cases {
            let (directory, path) = try archive(manifest)
            let error = catchPackageError { () throws(PackageError) in try FirmwarePackage.open(path: path) }
            XCTAssertTrue(error?.description.contains(words) == true, "\(manifest): \(String(describing: error))")
            _ = directory
        }
    }

    /// fwupd looks the file up by its base name.
    func testArchiveFindsTheImageByItsBaseName() throws {
        let manifest = #"{"format-version": 0, "files": [{"file": "firmware.bin", "bootloader_type": "beta", "board": "8278", "image_version": "2.0.1"}]}"#
        let (directory, path) = try archive(manifest, entry: "build/firmware.bin")
        let package = try FirmwarePackage.open(path: path)
        XCTAssertEqual(package.images.first?.version, "2.0.1")
        XCTAssertEqual(package.images.first?.fileName, "build/firmware.bin")
        _ = directory
    }

    /// An nRF Connect SDK manifest also has `files`: it stays one (no `bootloader_type`).
    func testNRFConnectManifestIsNotTakenForATelinkOne() throws {
        let package = try FirmwarePackage.open(path: MCUbootSamples.nrfConnectZip)
        XCTAssertEqual(package.format, .nrfConnectDFU)
    }
}
