import Foundation
import XCTest

/// `dfukit package create` and `dfukit package inspect`, checked against digests computed
/// by `sha256sum` and Python's `zlib`, and against hostile zips written by Python's `zipfile`.
final class PackageCommandTests: XCTestCase {
    /// Inspects `package` with `--json` and returns its only image, after checking the top level.
    private func inspectedImage(_ package: String, in directory: TemporaryDirectory, expectedStatus: Int32 = 0,
                                file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let result = try DFUKitBinary.run(["package", "inspect", package, "--json"], in: directory.path)
        XCTAssertEqual(result.status, expectedStatus, result.transcript, file: file, line: line)
        XCTAssertEqual(result.stderr, "", file: file, line: line)
        let object = try jsonObject(result.stdout, file: file, line: line)
        XCTAssertEqual(object["package"] as? String, package, file: file, line: line)
        XCTAssertEqual(object["format"] as? String, "dfukit-package v1", file: file, line: line)
        let images = try XCTUnwrap(object["images"] as? [[String: Any]], file: file, line: line)
        XCTAssertEqual(images.count, 1, file: file, line: line)
        return try XCTUnwrap(images.first, file: file, line: line)
    }

    /// Checks one manifest image against what the reference tools say about `imagePath`'s bytes.
    private func assertImage(_ image: [String: Any], name: String, matches imagePath: String, size: Int, version: String,
                             file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(image["name"] as? String, name, file: file, line: line)
        XCTAssertEqual(image["file"] as? String, name + ".bin", file: file, line: line)
        XCTAssertEqual(image["size"] as? Int, size, file: file, line: line)
        XCTAssertEqual(image["sha256"] as? String, try ReferenceDigest.sha256(ofFile: imagePath), file: file, line: line)
        XCTAssertEqual(image["crc32"] as? String, try ReferenceDigest.crc32(ofFile: imagePath), file: file, line: line)
        XCTAssertEqual(image["version"] as? String, version, file: file, line: line)
        XCTAssertEqual(image["profile"] as? String, "vendor-ctrlpt", file: file, line: line)
        XCTAssertEqual(image["matches_manifest"] as? Bool, true, file: file, line: line)
        XCTAssertEqual((image["problems"] as? [Any])?.count, 0, file: file, line: line)
    }

    /// A valid package of `size` pseudo-random bytes in `directory`, created by `dfukit`.
    static func makePackage(in directory: TemporaryDirectory, size: Int, name: String = "firmware.zip") throws -> String {
        try directory.write("firmware.bin", bytes: firmwareBytes(count: size))
        let result = try DFUKitBinary.run(["package", "create", "--profile", "vendor-ctrlpt", "--version", "1.0.0",
                                           "--output", name, "firmware.bin"], in: directory.path)
        guard result.status == 0 else { throw ProcessFailure(description: "package create failed:\n\(result.transcript)") }
        return directory.file(name)
    }

    func testCreateFromBinaryRecordsDigestsInTheManifest() throws {
        let directory = try TemporaryDirectory()
        let size = 24 * 1024 + 7
        let input = try directory.write("app.bin", bytes: firmwareBytes(count: size))
        let sha256 = try ReferenceDigest.sha256(ofFile: input)

        let create = try DFUKitBinary.run(["package", "create", "--profile", "vendor-ctrlpt", "--version", "1.4.2",
                                           "--output", "app.zip", "app.bin"], in: directory.path)
        XCTAssertEqual(create.status, 0, create.transcript)
        XCTAssertEqual(create.stderr, "")
        XCTAssertEqual(create.stdout, "app.zip: application \(size) bytes sha256 \(sha256)\n")

        let image = try inspectedImage("app.zip", in: directory)
        try assertImage(image, name: "application", matches: input, size: size, version: "1.4.2")

        let text = try DFUKitBinary.run(["package", "inspect", "app.zip"], in: directory.path)
        XCTAssertEqual(text.status, 0, text.transcript)
        XCTAssertEqual(text.stderr, "")
        for fragment in ["package: app.zip\n", "image application:\n", "  size:    \(size) bytes\n",
                         "  sha256:  \(sha256)\n", "  status:  matches manifest\n"] {
            XCTAssertTrue(text.stdout.contains(fragment), "missing '\(fragment)':\n\(text.stdout)")
        }
        XCTAssertTrue(text.stdout.hasSuffix("\nresult:  intact\n"), text.transcript)
    }

    /// A .hex with an extended linear address, a record run across a 64 KiB boundary and a gap
    /// becomes one flat image, gaps filled with 0xFF.
    func testCreateFromIntelHex() throws {
        let directory = try TemporaryDirectory()
        let segments: [(address: UInt32, bytes: [UInt8])] = [
            (0x0001_F000, firmwareBytes(count: 20_000, seed: 1)),
            (0x0001_F000 + 20_000 + 48, firmwareBytes(count: 12_000, seed: 2)),
        ]
        try directory.write("app.hex", text: IntelHexWriter.text(segments, startAddress: 0x0001_F101))
        let flat = IntelHexWriter.flatImage(segments)
        XCTAssertEqual(flat.count, 32_048)
        let expected = try directory.write("expected.bin", bytes: flat)

        let create = try DFUKitBinary.run(["package", "create", "--profile", "vendor-ctrlpt", "--version", "2.0.0-rc.1",
                                           "-o", "hex.zip", "app.hex"], in: directory.path)
        XCTAssertEqual(create.status, 0, create.transcript)
        XCTAssertEqual(create.stdout, "hex.zip: application \(flat.count) bytes sha256 \(try ReferenceDigest.sha256(ofFile: expected))\n")

        let image = try inspectedImage("hex.zip", in: directory)
        try assertImage(image, name: "application", matches: expected, size: flat.count, version: "2.0.0-rc.1")
    }

    func testCreateWithSeveralNamedImagesKeepsTheirOrder() throws {
        let directory = try TemporaryDirectory()
        try directory.write("boot.bin", bytes: firmwareBytes(count: 4096, seed: 3))
        try directory.write("main.bin", bytes: firmwareBytes(count: 8192, seed: 4))
        let create = try DFUKitBinary.run(["package", "create", "--profile", "vendor-ctrlpt", "--version", "3.0.0",
                                           "--output", "two.zip", "--name", "bootloader", "--name", "application",
                                           "boot.bin", "main.bin"], in: directory.path)
        XCTAssertEqual(create.status, 0, create.transcript)
        XCTAssertEqual(create.stdoutLines.map { $0.components(separatedBy: " sha256 ")[0] },
                       ["two.zip: bootloader 4096 bytes", "two.zip: application 8192 bytes"])

        let inspect = try DFUKitBinary.run(["package", "inspect", "--json", "two.zip"], in: directory.path)
        XCTAssertEqual(inspect.status, 0, inspect.transcript)
        let images = try XCTUnwrap(try jsonObject(inspect.stdout)["images"] as? [[String: Any]])
        XCTAssertEqual(images.map { $0["name"] as? String }, ["bootloader", "application"])
        XCTAssertEqual(images.map { $0["size"] as? Int }, [4096, 8192])
    }

    func testCreateFromBadInputsFails() throws {
        let directory = try TemporaryDirectory()
        var hex = IntelHexWriter.text([(0, firmwareBytes(count: 64))]).components(separatedBy: "\n")
        hex[2] = String(hex[2].dropLast(2)) + (hex[2].hasSuffix("00") ? "01" : "00")  // wrong checksum on line 3
        try directory.write("bad.hex", text: hex.joined(separator: "\n"))

        let badHex = try DFUKitBinary.run(["package", "create", "--profile", "vendor-ctrlpt", "--version", "1",
                                           "-o", "bad.zip", "bad.hex"], in: directory.path)
        XCTAssertEqual(badHex.status, 65, badHex.transcript)
        XCTAssertEqual(badHex.stdout, "")
        XCTAssertTrue(badHex.stderr.hasPrefix("error: bad.hex:3: invalid Intel HEX: checksum is 0x"), badHex.transcript)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.file("bad.zip")), "no package from a bad input")

        let missing = try DFUKitBinary.run(["package", "create", "--profile", "vendor-ctrlpt", "--version", "1",
                                            "-o", "missing.zip", "missing.bin"], in: directory.path)
        XCTAssertEqual(missing.status, 65, missing.transcript)
        XCTAssertTrue(missing.stderr.hasPrefix("error: missing.bin: cannot read firmware image"), missing.transcript)
    }

    func testInspectOfTamperedPackageNamesTheMismatch() throws {
        let directory = try TemporaryDirectory()
        let original = try Self.makePackage(in: directory, size: 20_000)
        var tamperedBytes = firmwareBytes(count: 20_000)
        tamperedBytes[0] ^= 0xFF
        let tamperedSHA256 = try ReferenceDigest.sha256(ofFile: try directory.write("tampered.bin", bytes: tamperedBytes))
        let originalSHA256 = try ReferenceDigest.sha256(ofFile: directory.file("firmware.bin"))
        try ZipSurgery.flipFirstByte(of: "application.bin", in: original, to: directory.file("tampered.zip"))

        let image = try inspectedImage("tampered.zip", in: directory, expectedStatus: 65)
        XCTAssertEqual(image["matches_manifest"] as? Bool, false)
        XCTAssertEqual(image["sha256"] as? String, tamperedSHA256)
        let problems = try XCTUnwrap(image["problems"] as? [String])
        XCTAssertEqual(problems.first, "sha256 mismatch: manifest says \(originalSHA256), image has \(tamperedSHA256)")
        XCTAssertTrue(problems.contains { $0.hasPrefix("crc32 mismatch: manifest says ") }, "\(problems)")

        let text = try DFUKitBinary.run(["package", "inspect", "tampered.zip"], in: directory.path)
        XCTAssertEqual(text.status, 65, text.transcript)
        XCTAssertTrue(text.stdout.contains("  status:  DOES NOT MATCH MANIFEST\n"), text.transcript)
        XCTAssertTrue(text.stdout.contains("    - sha256 mismatch: manifest says \(originalSHA256)"), text.transcript)
        XCTAssertTrue(text.stdout.hasSuffix("\nresult:  DAMAGED; do not flash this package\n"), text.transcript)
    }

    func testPathTraversalEntryIsRefused() throws {
        let directory = try TemporaryDirectory()
        try ZipSurgery.write(to: directory.file("traversal.zip"),
                             manifest: ZipSurgery.manifest(file: "../evil.bin", size: 1000, sha256: String(repeating: "0", count: 64),
                                                           crc32: "0x00000000"),
                             entry: "../evil.bin", zeroBytes: 1000)
        for extra in [[], ["--json"]] {
            let result = try DFUKitBinary.run(["package", "inspect", "traversal.zip"] + extra, in: directory.path)
            XCTAssertEqual(result.status, 65, result.transcript)
            XCTAssertEqual(result.stdout, "")
            XCTAssertTrue(result.stderr.hasPrefix("error: traversal.zip: unsafe entry name '../evil.bin' (contains a '..' component)."),
                          result.transcript)
            XCTAssertTrue(result.stderr.contains("may be malicious"), result.transcript)
        }
    }

    /// The manifest declares 100 bytes; the entry inflates to 20 MB of zeros. The reader stops
    /// early and refuses it.
    func testZipBombEntryIsRefused() throws {
        let directory = try TemporaryDirectory()
        try ZipSurgery.write(to: directory.file("bomb.zip"),
                             manifest: ZipSurgery.manifest(file: "application.bin", size: 100,
                                                           sha256: String(repeating: "0", count: 64), crc32: "0x00000000"),
                             entry: "application.bin", zeroBytes: 20 * 1024 * 1024)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: directory.file("bomb.zip"))[.size] as? Int)
        XCTAssertLessThan(size, 100_000, "the bomb should be small on disk")

        let result = try DFUKitBinary.run(["package", "inspect", "bomb.zip"], in: directory.path)
        XCTAssertEqual(result.status, 65, result.transcript)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.hasPrefix("error: bomb.zip, entry 'application.bin': inflates to more than "), result.transcript)
        XCTAssertTrue(result.stderr.contains("possible zip bomb"), result.transcript)
    }

    func testInspectOfMissingOrNonZipFile() throws {
        let directory = try TemporaryDirectory()
        try directory.write("not-a-zip.zip", text: "hello")
        for name in ["missing.zip", "not-a-zip.zip"] {
            let result = try DFUKitBinary.run(["package", "inspect", name], in: directory.path)
            XCTAssertEqual(result.status, 65, result.transcript)
            XCTAssertEqual(result.stdout, "")
            XCTAssertTrue(result.stderr.hasPrefix("error: \(name): "), result.transcript)
        }
    }
}
