import DFUPackage
import XCTest

/// A package whose image bytes were changed after it was built: it still opens (so `inspect`
/// can show the damage), but `requireIntact()` refuses it.
final class TamperedPackageTests: XCTestCase {
    /// Rewrites `path` with `application.bin` replaced by `newBytes`, keeping the original manifest.
    private func tamper(_ path: String, in directory: TemporaryDirectory, newBytes: [UInt8]) throws -> String {
        let archive = try ZipArchive(path: path)
        let manifest = try XCTUnwrap(archive.read(named: "manifest.json", expectedSize: 4096))
        let bootloader = try XCTUnwrap(archive.read(named: "bootloader.bin", expectedSize: 4))
        return try PackageFixtures.makeZip(in: directory, name: "tampered.zip", entries: [
            ("manifest.json", manifest), ("bootloader.bin", bootloader), ("application.bin", newBytes),
        ])
    }

    func testSameSizeTamperingIsReportedAndRefused() throws {
        let directory = try TemporaryDirectory()
        var bytes = PackageFixtures.applicationBytes
        bytes[4] ^= 0x01
        let path = try tamper(try PackageFixtures.makeValidPackage(in: directory), in: directory, newBytes: bytes)

        let package = try FirmwarePackage.open(path: path)
        XCTAssertFalse(package.isIntact)
        let application = try XCTUnwrap(package.image(named: "application"))
        XCTAssertFalse(application.matchesManifest)
        XCTAssertEqual(application.mismatches.map(\.check), [.sha256, .crc32])
        XCTAssertTrue(package.image(named: "bootloader")?.matchesManifest ?? false)

        let inspection = PackageInspection(package: package)
        XCTAssertFalse(inspection.isIntact)
        XCTAssertTrue(inspection.renderText().contains("DOES NOT MATCH MANIFEST"))
        XCTAssertTrue(inspection.renderJSON().contains("\"matches_manifest\": false"))
        XCTAssertTrue(inspection.renderJSON().contains("sha256 mismatch: manifest says \(PackageFixtures.applicationSHA256)"))

        let error = catchPackageError { () throws(PackageError) in try package.requireIntact() }
        guard case let .imageMismatch(errorPath, image, mismatches)? = error else {
            return XCTFail("expected imageMismatch, got \(String(describing: error))")
        }
        XCTAssertEqual(errorPath, path)
        XCTAssertEqual(image, "application")
        XCTAssertEqual(mismatches.map(\.check), [.sha256, .crc32])
        XCTAssertEqual(mismatches.first?.declared, PackageFixtures.applicationSHA256)
        XCTAssertEqual(mismatches.first?.actual, application.sha256)
        let message = error?.description ?? ""
        XCTAssertTrue(message.contains("image 'application'"), message)
        XCTAssertTrue(message.contains("sha256 mismatch"), message)
        XCTAssertTrue(message.contains("crc32 mismatch: manifest says 0xcbf43926"), message)
        XCTAssertTrue(message.contains("do not flash"), message)
    }

    func testTruncatedImageReportsSizeFirst() throws {
        let directory = try TemporaryDirectory()
        let path = try tamper(try PackageFixtures.makeValidPackage(in: directory), in: directory,
                              newBytes: Array(PackageFixtures.applicationBytes.prefix(5)))
        let package = try FirmwarePackage.open(path: path)
        let application = try XCTUnwrap(package.image(named: "application"))
        XCTAssertEqual(application.mismatches.map(\.check), [.size, .sha256, .crc32])
        XCTAssertEqual(application.problems.first, "size mismatch: manifest says 9 bytes, image has 5 bytes")
        guard case .imageMismatch(_, "application", _)? = catchPackageError({ () throws(PackageError) in
            try package.requireIntact()
        }) else { return XCTFail("truncated image accepted") }
    }
}
