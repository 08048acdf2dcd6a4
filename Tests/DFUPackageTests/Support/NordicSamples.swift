import DFUPackage
import Foundation
import XCTest

/// The packages in `firmware-samples/nordic`, made by nrfutil 6.1.7 and adafruit-nrfutil
/// (`firmware-samples/make-nordic-samples.sh`), and a way to tamper with copies of them.
enum NordicSamples {
    static let directory: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // DFUPackageTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()
        .appendingPathComponent("firmware-samples/nordic").path

    static let unsignedApplication = path("app-unsigned.zip")
    static let signedApplication = path("app-signed.zip")
    static let softDeviceBootloaderApplication = path("sd-bl-app-signed.zip")
    static let signedBootloader = path("bootloader-signed.zip")
    static let legacyApplication = path("legacy-app.zip")

    static func path(_ name: String) -> String { directory + "/" + name }

    /// The public key the signed samples were signed with (PEM).
    static func signingKey() throws -> String {
        try String(contentsOfFile: path("test-signing-key-THROWAWAY.pub.pem"), encoding: .utf8)
    }

    /// Another throwaway key: no sample is signed with it.
    static func wrongKey() throws -> String {
        try String(contentsOfFile: path("wrong-key-THROWAWAY.pub.pem"), encoding: .utf8)
    }

    /// The bytes of `entry` in `sample`.
    static func entry(_ entry: String, of sample: String) throws -> [UInt8] {
        try XCTUnwrap(ZipArchive(path: sample).read(named: entry, expectedSize: 1 << 20))
    }

    /// Copies `sample` to `name` in `directory` with the entries in `changes` transformed; the
    /// copy is written by Python's `zipfile`, keeping every other entry, its order and compression.
    static func tampered(_ sample: String, in directory: TemporaryDirectory, name: String,
                         changes: [String: ([UInt8]) -> [UInt8]]) throws -> String {
        var replacements: [String: String] = [:]
        for (entryName, change) in changes {
            let replacement = try directory.write("replacement-\(replacements.count).bin",
                                                  bytes: change(try entry(entryName, of: sample)))
            replacements[entryName] = replacement
        }
        let output = directory.file(name)
        let script = #"""
        import json, sys, zipfile
        source, output, replacements = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
        with zipfile.ZipFile(source) as original, zipfile.ZipFile(output, "w") as copy:
            for info in original.infolist():
                data = original.read(info.filename)
                if info.filename in replacements:
                    data = open(replacements[info.filename], "rb").read()
                copy.writestr(info, data, info.compress_type)
        """#
        let mapping = String(decoding: try JSONEncoder().encode(replacements), as: UTF8.self)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, sample, output, mapping]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PackageFixtures.FixtureError(message: "python3 could not rewrite \(sample)")
        }
        return output
    }

    /// `bytes` with the byte at `index` (from the end when negative) XOR 0x01.
    static func flip(_ bytes: [UInt8], at index: Int) -> [UInt8] {
        var copy = bytes
        copy[index >= 0 ? index : copy.count + index] ^= 0x01
        return copy
    }
}
