import DFUPackage
import Foundation
import XCTest

/// Builds packages for tests: well-formed ones with `PackageBuilder` / `ZipWriter`, and
/// malicious ones with Python's `zipfile`, which writes names and sizes our writer refuses.
enum PackageFixtures {
    static let applicationBytes = Array("123456789".utf8)
    static let applicationSHA256 = "15e2b0d3c33891ebb0f1ef609ec419420c20e320ce94c65fbc8c3312448eb225"
    static let applicationCRC32: UInt32 = 0xCBF4_3926
    static let bootloaderBytes = Array("BOOT".utf8)
    static let bootloaderSHA256 = "9b1b03b57528e8923f73b8e644e99f1b417446bb30da55761308b0ed06407fda"
    static let bootloaderCRC32: UInt32 = 0x7078_4370

    /// A valid two-image package (`bootloader` then `application`) in `directory`.
    @discardableResult
    static func makeValidPackage(in directory: TemporaryDirectory, name: String = "firmware.zip") throws -> String {
        let path = directory.file(name)
        try PackageBuilder.create(images: [
            .init(name: "bootloader", data: bootloaderBytes, version: "0.9.0"),
            .init(name: "application", data: applicationBytes, version: "1.2.3"),
        ], profile: "vendor-ctrlpt", outputPath: path)
        return path
    }

    /// A zip with exactly `entries` (name, bytes), written by our `ZipWriter`.
    @discardableResult
    static func makeZip(in directory: TemporaryDirectory, name: String,
                        entries: [(String, [UInt8])]) throws -> String {
        let path = directory.file(name)
        let writer = try ZipWriter(path: path)
        for (entryName, bytes) in entries { try writer.add(name: entryName, bytes: bytes) }
        try writer.close()
        return path
    }

    /// A manifest for one `application.bin` image, with `size` / `crc32` overridable.
    static func manifestText(size: Int = 9, crc32: String = "\"0xcbf43926\"",
                             sha256: String = applicationSHA256) -> String {
        """
        {"format": "dfukit-package", "format_version": 1, "images": [
          {"name": "application", "file": "application.bin", "size": \(size),
           "sha256": "\(sha256)", "crc32": \(crc32), "version": "1.2.3", "profile": "vendor-ctrlpt"}]}
        """
    }

    /// One entry of a zip written by Python.
    struct PythonEntry: Encodable {
        var name: String
        var text: String? = nil
        /// Instead of `text`: this many zero bytes.
        var zeros: Int? = nil
        /// Patch the uncompressed size in both the local and the central header to this lie.
        var claimedSize: Int? = nil
    }

    /// Writes a deflated zip with Python's `zipfile`, which accepts any entry name.
    static func makePythonZip(at path: String, entries: [PythonEntry]) throws {
        let spec = try JSONEncoder().encode(entries)
        let specPath = path + ".spec.json"
        try spec.write(to: URL(fileURLWithPath: specPath))
        defer { try? FileManager.default.removeItem(atPath: specPath) }
        let script = #"""
        import json, struct, sys, zipfile
        out, spec = sys.argv[1], json.load(open(sys.argv[2]))
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            for e in spec:
                data = e["text"].encode() if e.get("text") is not None else bytes(e.get("zeros") or 0)
                z.writestr(zipfile.ZipInfo(e["name"], (2000, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
        raw = bytearray(open(out, "rb").read())
        infos = {i.filename: i for i in zipfile.ZipFile(out).infolist()}
        for e in spec:
            if e.get("claimedSize") is None:
                continue
            info = infos[e["name"]]
            struct.pack_into("<I", raw, info.header_offset + 22, e["claimedSize"])
            pos = raw.find(b"PK\x01\x02")
            while pos >= 0:
                name_len = struct.unpack_from("<H", raw, pos + 28)[0]
                if raw[pos + 46:pos + 46 + name_len].decode() == e["name"]:
                    struct.pack_into("<I", raw, pos + 24, e["claimedSize"])
                pos = raw.find(b"PK\x01\x02", pos + 4)
        open(out, "wb").write(raw)
        """#
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, path, specPath]
        let errorPipe = Pipe()
        process.standardError = errorPipe
        try process.run()
        let errorOutput = errorPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FixtureError(message: "python3 failed: " + String(decoding: errorOutput, as: UTF8.self))
        }
    }

    struct FixtureError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}

/// Runs `body` and returns the `PackageError` it throws; fails the test if it throws nothing.
func catchPackageError<T>(_ body: () throws(PackageError) -> T,
                          file: StaticString = #filePath, line: UInt = #line) -> PackageError? {
    do {
        _ = try body()
        XCTFail("expected a PackageError, nothing was thrown", file: file, line: line)
        return nil
    } catch {
        return error
    }
}
