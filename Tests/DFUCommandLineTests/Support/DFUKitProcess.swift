import Foundation
import XCTest

/// What one run of a program printed and how it exited.
struct ProcessResult: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Standard error split into lines, without the empty string after the last newline.
    var stderrLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
    var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }

    /// A summary for assertion messages.
    var transcript: String { "exit \(status)\n--- stdout ---\n\(stdout)--- stderr ---\n\(stderr)--------------" }
}

struct ProcessFailure: Error, CustomStringConvertible {
    var description: String
}

/// Runs programs with their output captured in files (no pipe can fill up and block them).
enum Subprocess {
    /// Runs `executable` with `arguments` in `directory`; kills it after `timeout` seconds.
    static func run(_ executable: URL, _ arguments: [String], in directory: String? = nil,
                    environment: [String: String]? = nil, timeout: TimeInterval = 60) throws -> ProcessResult {
        let capture = try CapturedOutput(prefix: "dfukit-capture")
        let (process, finished) = capture.process(executable, arguments)
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        if let environment { process.environment = environment }
        try process.run()
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            finished.wait()
            throw ProcessFailure(description: "\(executable.path) \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
        }
        return try capture.result(of: process)
    }

    /// Runs a tool found on `PATH` (`sha256sum`, `python3`) and returns its standard output;
    /// throws when it fails.
    static func tool(_ name: String, _ arguments: [String]) throws -> String {
        let result = try run(URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments)
        guard result.status == 0 else {
            throw ProcessFailure(description: "\(name) \(arguments.joined(separator: " ")) failed:\n\(result.transcript)")
        }
        return result.stdout
    }
}

/// The built `dfukit` executable, found next to the test bundle.
enum DFUKitBinary {
    /// The repository root, from this file's place in `Tests/DFUCommandLineTests/Support`.
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // DFUCommandLineTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    static let shippedProfile: String = repositoryRoot.appendingPathComponent("profiles/vendor-ctrlpt.yaml").path

    /// Where to look, best first: `$DFUKIT_BINARY`; the build products directory that holds
    /// this test bundle (`swift test`, with or without `--scratch-path`; on Linux the bundle is
    /// `<products>/DFUKitPackageTests.xctest`, on macOS `<products>/….xctest/Contents/MacOS/…`);
    /// then the default scratch path of the source tree.
    static var candidates: [URL] {
        var urls: [URL] = []
        if let override = ProcessInfo.processInfo.environment["DFUKIT_BINARY"], !override.isEmpty {
            urls.append(URL(fileURLWithPath: override))
        }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            urls.append(bundle.bundleURL.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("dfukit"))
        }
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            // The products directory is the one that holds the `.xctest` (file or bundle).
            var directory = executable
            while directory.pathComponents.count > 1, directory.pathExtension != "xctest" {
                directory = directory.deletingLastPathComponent()
            }
            let products = directory.pathExtension == "xctest" ? directory.deletingLastPathComponent()
                : executable.deletingLastPathComponent()
            urls.append(products.appendingPathComponent("dfukit"))
        }
        urls.append(repositoryRoot.appendingPathComponent(".build/debug/dfukit"))
        return urls
    }

    static let located: Result<URL, ProcessFailure> = {
        let urls = candidates
        if let found = urls.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
            return .success(found)
        }
        return .failure(ProcessFailure(description: """
            the dfukit executable is not built next to the tests; looked for:
            \(urls.map { "  " + $0.path }.joined(separator: "\n"))
            Build it with the same scratch path as the tests ('swift build --product dfukit [--scratch-path DIR]'; \
            plain 'swift test' builds it), or set DFUKIT_BINARY to its path.
            """))
    }()

    /// Runs `dfukit arguments` in `directory` (default: a fresh empty one, so no `./profiles`
    /// interferes), with `DFUKIT_PROFILE_PATH` unset.
    static func run(_ arguments: [String], in directory: String? = nil) throws -> ProcessResult {
        let executable = try located.get()
        var environment = ProcessInfo.processInfo.environment
        environment["DFUKIT_PROFILE_PATH"] = nil
        let scratch = directory == nil ? try TemporaryDirectory(prefix: "dfukit-cwd") : nil
        return try withExtendedLifetime(scratch) {
            try Subprocess.run(executable, arguments, in: directory ?? scratch?.path, environment: environment)
        }
    }
}

/// A fresh directory under the system temporary directory, removed when released.
final class TemporaryDirectory {
    let path: String

    init(prefix: String = "dfukit-cli-tests") throws {
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent(prefix + "-" + UUID().uuidString)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    @discardableResult
    func write(_ name: String, bytes: [UInt8]) throws -> String {
        let filePath = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: filePath))
        return filePath
    }

    @discardableResult
    func write(_ name: String, text: String) throws -> String {
        try write(name, bytes: Array(text.utf8))
    }
}

/// Parses one JSON object printed by `dfukit … --json`.
func jsonObject(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try XCTUnwrap(object as? [String: Any], "not a JSON object: \(text)", file: file, line: line)
}

/// Deterministic pseudo-random firmware bytes (a 32-bit LCG), so failures reproduce.
func firmwareBytes(count: Int, seed: UInt32 = 0x1234_5678) -> [UInt8] {
    var state = seed
    return (0..<count).map { _ in
        state = state &* 1_664_525 &+ 1_013_904_223
        return UInt8(truncatingIfNeeded: state >> 24)
    }
}

/// Independent checks of what `dfukit` computes: external tools, not DFUKit's code.
enum ReferenceDigest {
    static func sha256(ofFile path: String) throws -> String {
        let output = try Subprocess.tool("sha256sum", ["--", path])
        return String(output.prefix(while: { $0 != " " }))
    }

    /// CRC-32 (zlib / IEEE) as `0x%08x`, from Python's `zlib.crc32`.
    static func crc32(ofFile path: String) throws -> String {
        let output = try Subprocess.tool("python3", ["-c", """
            import sys, zlib
            print('0x%08x' % (zlib.crc32(open(sys.argv[1], 'rb').read()) & 0xffffffff))
            """, path])
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Builds hostile or damaged zip files with Python's `zipfile`, independently of DFUKit's writer.
enum ZipSurgery {
    /// Copies `source` to `destination`, replacing entry `name` with `source`'s bytes of that
    /// entry with the first byte inverted; the manifest stays as it was.
    static func flipFirstByte(of name: String, in source: String, to destination: String) throws {
        _ = try Subprocess.tool("python3", ["-c", """
            import sys, zipfile
            source, destination, name = sys.argv[1:4]
            with zipfile.ZipFile(source) as zin, zipfile.ZipFile(destination, 'w', zipfile.ZIP_DEFLATED) as zout:
                for info in zin.infolist():
                    data = zin.read(info.filename)
                    if info.filename == name:
                        data = bytes([data[0] ^ 0xFF]) + data[1:]
                    zout.writestr(info.filename, data)
            """, source, destination, name])
    }

    /// Writes a zip at `destination` whose entries are `manifest.json` with `manifest`, and
    /// `entry` holding `zeroBytes` zero bytes (deflated).
    static func write(to destination: String, manifest: String, entry: String, zeroBytes: Int) throws {
        _ = try Subprocess.tool("python3", ["-c", """
            import sys, zipfile
            destination, manifest, entry, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
            with zipfile.ZipFile(destination, 'w', zipfile.ZIP_DEFLATED) as z:
                z.writestr('manifest.json', manifest)
                z.writestr(entry, bytes(count))
            """, destination, manifest, entry, String(zeroBytes)])
    }

    /// Builds a manifest with one image, the way `package create` writes it.
    static func manifest(file: String, size: Int, sha256: String, crc32: String) -> String {
        """
        {"format": "dfukit-package", "format_version": 1, "images": [{"name": "application", "file": "\(file)", \
        "size": \(size), "sha256": "\(sha256)", "crc32": "\(crc32)", "version": "1.0.0", "profile": "vendor-ctrlpt"}]}
        """
    }
}
