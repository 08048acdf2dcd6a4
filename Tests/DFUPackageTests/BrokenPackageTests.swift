import DFUPackage
import XCTest

/// Packages that cannot be read at all: each failure must be a specific `PackageError` that
/// says what, where, and what to do.
final class BrokenPackageTests: XCTestCase {
    func testMissingImageFile() throws {
        let directory = try TemporaryDirectory()
        let path = try PackageFixtures.makeZip(in: directory, name: "p.zip", entries: [
            ("manifest.json", Array(PackageFixtures.manifestText().utf8)),
        ])
        let error = catchPackageError { () throws(PackageError) in try FirmwarePackage.open(path: path) }
        XCTAssertEqual(error, .missingImageFile(path: path, image: "application", file: "application.bin"))
        XCTAssertTrue(error?.description.contains("'application.bin', which is not in the archive") ?? false)
    }

    func testMissingManifest() throws {
        let directory = try TemporaryDirectory()
        let path = try PackageFixtures.makeZip(in: directory, name: "p.zip", entries: [
            ("application.bin", PackageFixtures.applicationBytes), ("sub/manifest.json", Array("{}".utf8)),
        ])
        let error = catchPackageError { () throws(PackageError) in try FirmwarePackage.open(path: path) }
        XCTAssertEqual(error, .missingManifest(path: path))
        XCTAssertTrue(error?.description.hasPrefix(path + ": no manifest.json") ?? false)
    }

    func testNotAZip() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("firmware.zip", text: String(repeating: "this is not a zip file\n", count: 10))
        guard case .notAZip(path, _)? = catchPackageError({ () throws(PackageError) in try FirmwarePackage.open(path: path) })
        else { return XCTFail("text file accepted as zip") }

        let empty = try directory.write("empty.zip", bytes: [])
        guard case .notAZip(empty, "the file is empty")? =
                catchPackageError({ () throws(PackageError) in try FirmwarePackage.open(path: empty) })
        else { return XCTFail("empty file accepted as zip") }
    }

    func testTruncatedZipIsNotAcceptedSilently() throws {
        let directory = try TemporaryDirectory()
        let path = try PackageFixtures.makeValidPackage(in: directory)
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: path))
        let truncated = try directory.write("truncated.zip", bytes: Array(bytes.prefix(bytes.count - 30)))
        let error = catchPackageError { () throws(PackageError) in try FirmwarePackage.open(path: truncated) }
        switch error {
        case .notAZip?, .corruptArchive?: break
        default: XCTFail("unexpected \(String(describing: error))")
        }
    }

    func testMissingFileAndDirectoryAreIOErrors() throws {
        let directory = try TemporaryDirectory()
        guard case .io(_, _, "no such file")? =
                catchPackageError({ () throws(PackageError) in try FirmwarePackage.open(path: directory.file("absent.zip")) })
        else { return XCTFail("missing file") }
        guard case .io? = catchPackageError({ () throws(PackageError) in try FirmwarePackage.open(path: directory.path) })
        else { return XCTFail("directory") }
    }

    func testManifestWithWrongTypesNamesTheKey() throws {
        let sha = PackageFixtures.applicationSHA256
        let cases: [(manifest: String, key: String, fragment: String)] = [
            ("[1, 2]", "(document)", "expected an object, found an array"),
            ("{\"format\": \"dfukit-package\", \"format_version\": 1", "(document)", "not valid JSON"),
            ("{\"format\": 7, \"format_version\": 1, \"images\": []}", "format", "expected a string, found a number"),
            ("{\"format\": \"dfukit-package\", \"format_version\": \"1\", \"images\": []}", "format_version", "found a string"),
            ("{\"format\": \"dfukit-package\", \"format_version\": 1}", "images", "missing"),
            ("{\"format\": \"dfukit-package\", \"format_version\": 1, \"images\": {}}", "images", "expected an array"),
            ("{\"format\": \"dfukit-package\", \"format_version\": 1, \"images\": []}", "images", "no image"),
            ("{\"format\": \"dfukit-package\", \"format_version\": 1, \"images\": [true]}", "images[0]", "found a boolean"),
            (PackageFixtures.manifestText().replacingOccurrences(of: "\"size\": 9", with: "\"size\": \"9\""),
             "images[0].size", "expected an integer, found a string"),
            (PackageFixtures.manifestText().replacingOccurrences(of: "\"size\": 9", with: "\"size\": 9.5"),
             "images[0].size", "expected an integer, found a number"),
            (PackageFixtures.manifestText().replacingOccurrences(of: "\"size\": 9", with: "\"size\": true"),
             "images[0].size", "found a boolean"),
            (PackageFixtures.manifestText(size: -1), "images[0].size", "negative"),
            (PackageFixtures.manifestText(crc32: "3421780262"), "images[0].crc32", "expected a string such as"),
            (PackageFixtures.manifestText(crc32: "\"cbf43926\""), "images[0].crc32", "expected \"0x\""),
            (PackageFixtures.manifestText(sha256: "abc"), "images[0].sha256", "64 hex digits"),
            (PackageFixtures.manifestText().replacingOccurrences(of: "\"version\": \"1.2.3\"", with: "\"version\": 123"),
             "images[0].version", "expected a string"),
            (PackageFixtures.manifestText().replacingOccurrences(of: "\"profile\": \"vendor-ctrlpt\"", with: "\"profile\": null"),
             "images[0].profile", "found null"),
            (PackageFixtures.manifestText().replacingOccurrences(of: "\"file\": \"application.bin\",", with: ""),
             "images[0].file", "missing"),
            ("{\"format\": \"dfukit-package\", \"format_version\": 1, \"images\": ["
                + "{\"name\": \"a\", \"file\": \"a.bin\", \"size\": 0, \"sha256\": \"\(sha)\", \"crc32\": \"0x0\", \"version\": \"1\", \"profile\": \"p\"},"
                + "{\"name\": \"a\", \"file\": \"b.bin\", \"size\": 0, \"sha256\": \"\(sha)\", \"crc32\": \"0x0\", \"version\": \"1\", \"profile\": \"p\"}]}",
             "images[1].name", "duplicate"),
        ]
        for testCase in cases {
            let error = catchPackageError { () throws(PackageError) in
                try PackageManifest.parse(Array(testCase.manifest.utf8), packagePath: "pkg.zip")
            }
            guard case let .badManifest(path, key, problem)? = error else {
                XCTFail("\(testCase.manifest): expected badManifest, got \(String(describing: error))"); continue
            }
            XCTAssertEqual(path, "pkg.zip")
            XCTAssertEqual(key, testCase.key, testCase.manifest)
            XCTAssertTrue(problem.contains(testCase.fragment), "\(testCase.manifest): \(problem)")
        }
    }

    func testWrongTypeInsidePackageReachesOpen() throws {
        let directory = try TemporaryDirectory()
        let manifest = PackageFixtures.manifestText().replacingOccurrences(of: "\"size\": 9", with: "\"size\": \"9\"")
        let path = try PackageFixtures.makeZip(in: directory, name: "p.zip", entries: [
            ("manifest.json", Array(manifest.utf8)), ("application.bin", PackageFixtures.applicationBytes),
        ])
        let error = catchPackageError { () throws(PackageError) in try FirmwarePackage.open(path: path) }
        XCTAssertEqual(error?.description,
                       "\(path), manifest.json, key 'images[0].size': expected an integer, found a string. "
                       + "Fix the manifest or recreate the package.")
    }

    func testUnsupportedFormats() throws {
        // A Nordic manifest is read now (NordicPackageTests); a legacy one of a later dfu_version is not.
        let nordic = "{\"manifest\": {\"application\": {\"bin_file\": \"app.bin\", \"dat_file\": \"app.dat\"}}}"
        XCTAssertEqual(try PackageManifest.parse(Array(nordic.utf8), packagePath: "nordic.zip").format, .nordicSecure)
        let legacy = "{\"manifest\": {\"dfu_version\": 0.7, \"application\": {\"bin_file\": \"a.bin\", \"dat_file\": \"a.dat\"}}}"
        guard case .unsupportedFormat(_, let found)? = catchPackageError({ () throws(PackageError) in
            try PackageManifest.parse(Array(legacy.utf8), packagePath: "nordic.zip")
        }) else { return XCTFail("legacy dfu_version 0.7 accepted") }
        XCTAssertTrue(found.contains("dfu_version 0.7"), found)

        let future = "{\"format\": \"dfukit-package\", \"format_version\": 2, \"images\": []}"
        guard case .unsupportedFormat? = catchPackageError({ () throws(PackageError) in
            try PackageManifest.parse(Array(future.utf8), packagePath: "future.zip")
        }) else { return XCTFail("format_version 2 accepted") }
    }
}
