import DFUPackage
import XCTest

final class PackageRoundTripTests: XCTestCase {
    func testCreateThenOpenGivesGoldenManifestAndBytes() throws {
        let directory = try TemporaryDirectory()
        let path = try PackageFixtures.makeValidPackage(in: directory)

        let package = try FirmwarePackage.open(path: path)
        XCTAssertEqual(package.format, .dfukit)
        XCTAssertEqual(package.manifest.formatVersion, 1)
        XCTAssertEqual(package.images.map(\.name), ["bootloader", "application"])

        let application = try XCTUnwrap(package.image(named: "application"))
        XCTAssertEqual(application.fileName, "application.bin")
        XCTAssertEqual(application.version, "1.2.3")
        XCTAssertEqual(application.profile, "vendor-ctrlpt")
        XCTAssertEqual(application.declaredSize, 9)
        XCTAssertEqual(application.declaredSHA256, PackageFixtures.applicationSHA256)
        XCTAssertEqual(application.declaredCRC32, PackageFixtures.applicationCRC32)
        XCTAssertEqual(application.data, PackageFixtures.applicationBytes)
        XCTAssertEqual(application.sha256, PackageFixtures.applicationSHA256)
        XCTAssertEqual(application.crc32, PackageFixtures.applicationCRC32)
        XCTAssertTrue(application.matchesManifest)
        XCTAssertEqual(application.mismatches, [])

        let bootloader = try XCTUnwrap(package.image(named: "bootloader"))
        XCTAssertEqual(bootloader.sha256, PackageFixtures.bootloaderSHA256)
        XCTAssertEqual(bootloader.crc32, PackageFixtures.bootloaderCRC32)
        XCTAssertTrue(package.isIntact)
        XCTAssertNoThrow(try package.requireIntact())
    }

    func testManifestTextIsGolden() throws {
        let directory = try TemporaryDirectory()
        let path = try PackageFixtures.makeValidPackage(in: directory)
        let archive = try ZipArchive(path: path)
        XCTAssertEqual(archive.entries.map(\.name), ["manifest.json", "bootloader.bin", "application.bin"])
        let manifestBytes = try XCTUnwrap(archive.read(named: "manifest.json", expectedSize: 4096))
        XCTAssertEqual(String(decoding: manifestBytes, as: UTF8.self), """
            {
              "format": "dfukit-package",
              "format_version": 1,
              "images": [
                {
                  "name": "bootloader",
                  "file": "bootloader.bin",
                  "size": 4,
                  "sha256": "9b1b03b57528e8923f73b8e644e99f1b417446bb30da55761308b0ed06407fda",
                  "crc32": "0x70784370",
                  "version": "0.9.0",
                  "profile": "vendor-ctrlpt"
                },
                {
                  "name": "application",
                  "file": "application.bin",
                  "size": 9,
                  "sha256": "15e2b0d3c33891ebb0f1ef609ec419420c20e320ce94c65fbc8c3312448eb225",
                  "crc32": "0xcbf43926",
                  "version": "1.2.3",
                  "profile": "vendor-ctrlpt"
                }
              ]
            }

            """)
    }

    func testSameInputsGiveIdenticalPackages() throws {
        let directory = try TemporaryDirectory()
        let first = try PackageFixtures.makeValidPackage(in: directory, name: "a.zip")
        let second = try PackageFixtures.makeValidPackage(in: directory, name: "b.zip")
        XCTAssertEqual(FileManager.default.contents(atPath: first), FileManager.default.contents(atPath: second))
    }

    func testLargeImageRoundTrips() throws {
        let directory = try TemporaryDirectory()
        let data = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        let path = directory.file("large.zip")
        try PackageBuilder.create(images: [.init(name: "application", data: data, version: "2.0.0")],
                                  profile: "smp", outputPath: path)
        let package = try FirmwarePackage.open(path: path)
        XCTAssertEqual(package.images.first?.data, data)
        XCTAssertTrue(package.isIntact)
    }

    func testBuilderReadsBinAndHexByExtension() throws {
        let directory = try TemporaryDirectory()
        let binPath = try directory.write("app.bin", bytes: PackageFixtures.applicationBytes)
        let hexPath = try directory.write("boot.hex", text: ":020000040800F2\n:04000000424F4F54C8\n:00000001FF\n")
        let images = [
            try PackageBuilder.Image(name: "application", filePath: binPath, version: "1.2.3"),
            try PackageBuilder.Image(name: "bootloader", filePath: hexPath, version: "0.9.0"),
        ]
        XCTAssertEqual(images[0].data, PackageFixtures.applicationBytes)
        XCTAssertEqual(images[1].data, PackageFixtures.bootloaderBytes)

        let textPath = try directory.write("notes.txt", text: "hello")
        guard case .invalidBuildInput(let reason)? = catchPackageError({ () throws(PackageError) in
            try PackageBuilder.Image(name: "application", filePath: textPath, version: "1")
        }) else { return XCTFail("expected invalidBuildInput") }
        XCTAssertTrue(reason.contains(".bin or .hex"), reason)
    }

    func testBuilderRejectsBadNamesAndDuplicates() {
        let data: [UInt8] = [1, 2, 3]
        for name in ["", "../evil", "a/b", ".hidden", "a\\b", "nul\u{0}"] {
            let error = catchPackageError { () throws(PackageError) in
                try PackageBuilder.manifest(for: [.init(name: name, data: data, version: "1")], profile: "p")
            }
            guard case .invalidBuildInput? = error else { return XCTFail("name '\(name)' accepted: \(String(describing: error))") }
        }
        let duplicate = catchPackageError { () throws(PackageError) in
            try PackageBuilder.manifest(for: [.init(name: "app", data: data, version: "1"),
                                              .init(name: "app", data: data, version: "2")], profile: "p")
        }
        guard case .invalidBuildInput(let reason)? = duplicate else { return XCTFail("duplicate accepted") }
        XCTAssertTrue(reason.contains("twice"), reason)
    }

    func testCRC32Formatting() {
        XCTAssertEqual(ManifestImage.formatCRC32(0x0000_00AB), "0x000000ab")
        XCTAssertEqual(ManifestImage.parseCRC32("0xCBF43926"), 0xCBF4_3926)
        XCTAssertEqual(ManifestImage.parseCRC32("0x1"), 1)
        XCTAssertNil(ManifestImage.parseCRC32("cbf43926"))
        XCTAssertNil(ManifestImage.parseCRC32("0x123456789"))
        XCTAssertNil(ManifestImage.parseCRC32("0xfg"))
    }
}
