import DFUCommandLine
import DFUKit
import Foundation
import XCTest

/// One version: the library's, `dfukit --version`'s and the change log's.
final class VersionTests: XCTestCase {
    private final class RecordingConsole: Console, @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        var output: [String] { lock.withLock { lines } }
        func out(_ text: String) { lock.withLock { lines.append(text) } }
        func error(_ text: String) {}
        func errorInPlace(_ text: String) {}
        var isInteractive: Bool { false }
    }

    func testTheCommandLinePrintsTheLibraryVersion() async {
        let console = RecordingConsole()
        let status = await DFUKitCommandLine.run(["--version"], console: console)
        XCTAssertEqual(status, 0)
        XCTAssertEqual(console.output, ["dfukit \(DFUKit.version)"])
        XCTAssertEqual(DFUKitCommandLine.version, DFUKit.version)
    }

    /// The built `dfukit` binary (when it is next to the tests) says the same.
    func testTheBuiltBinaryPrintsTheLibraryVersion() throws {
        let binary = Fixtures.repositoryRoot.appendingPathComponent(".build/debug/dfukit")
        let candidates = Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }
            .map { $0.bundleURL.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("dfukit") } + [binary]
        let found = try XCTUnwrap(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) },
                                  "dfukit is not built: \(candidates.map(\.path))")
        let process = Process()
        process.executableURL = found
        process.arguments = ["--version"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(String(decoding: output, as: UTF8.self), "dfukit \(DFUKit.version)\n")
    }

    func testTheVersionIsSemanticAndTheChangeLogsNewestRelease() throws {
        let parts = DFUKit.version.split(separator: ".")
        XCTAssertEqual(parts.count, 3)
        XCTAssertTrue(parts.allSatisfy { Int($0) != nil }, DFUKit.version)
        let changelog = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let releases = changelog.split(separator: "\n").filter { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") }
        let newest = try XCTUnwrap(releases.first, "CHANGELOG.md has no release heading")
        XCTAssertTrue(newest.hasPrefix("## [\(DFUKit.version)]"), "newest release in CHANGELOG.md: \(newest)")
    }

    /// The profile language is at version 1, and the change log's preamble says which version it is
    /// ("the profile language has its own version (...), N so far"): a new language version is a
    /// deliberate change of this test, of the change log and of every shipped profile.
    func testTheProfileLanguageVersionIsOneAsTheChangeLogSays() throws {
        XCTAssertEqual(DFUKit.profileLanguageVersion, 1)
        let changelog = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let preamble = changelog.components(separatedBy: "\n## ").first ?? ""
        let words = preamble.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        let statement = try XCTUnwrap(words.range(of: "the profile language has its own version"),
                                      "CHANGELOG.md's preamble does not say the profile language's version")
        let rest = words[statement.upperBound...]
        let soFar = try XCTUnwrap(rest.range(of: " so far"), "CHANGELOG.md: \(rest.prefix(120))")
        let number = rest[..<soFar.lowerBound].split(separator: " ").last.map(String.init)
        XCTAssertEqual(number, "\(DFUKit.profileLanguageVersion)", "CHANGELOG.md: \(rest.prefix(120))")
    }

    func testTheProfileLanguageVersionIsTheOneTheShippedProfilesDeclare() throws {
        XCTAssertEqual(DFUKit.profileLanguageVersion, ProfileLanguage.version)
        let directory = Fixtures.repositoryRoot.appendingPathComponent("profiles")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".yaml") }
        XCTAssertFalse(files.isEmpty)
        for file in files {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            XCTAssertTrue(text.split(separator: "\n").contains("version: \(DFUKit.profileLanguageVersion)"), file)
        }
    }
}
