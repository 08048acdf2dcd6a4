import Foundation
import XCTest

/// `dfukit profile check`: the shipped profile passes; broken copies of it fail with
/// `FILE:LINE:COL: error: MESSAGE` lines that point at the mistake.
final class ProfileCheckCommandTests: XCTestCase {
    private func shippedProfileText() throws -> String {
        try String(contentsOfFile: DFUKitBinary.shippedProfile, encoding: .utf8)
    }

    /// The 1-based line and column of the first `needle` in `text`, found by the test itself.
    private func position(of needle: String, in text: String, file: StaticString = #filePath,
                          line: UInt = #line) throws -> (line: Int, column: Int) {
        let lines = text.components(separatedBy: "\n")
        for (index, content) in lines.enumerated() {
            if let range = content.range(of: needle) {
                return (index + 1, content.distance(from: content.startIndex, to: range.lowerBound) + 1)
            }
        }
        XCTFail("'\(needle)' not found", file: file, line: line)
        throw ProcessFailure(description: "'\(needle)' not found")
    }

    /// Replaces exactly one occurrence of `original` in the shipped profile.
    private func brokenProfile(replacing original: String, with replacement: String) throws -> String {
        let text = try shippedProfileText()
        let parts = text.components(separatedBy: original)
        XCTAssertEqual(parts.count, 2, "'\(original)' should occur once in the shipped profile")
        return parts.joined(separator: replacement)
    }

    func testShippedProfileIsValid() throws {
        let result = try DFUKitBinary.run(["profile", "check", DFUKitBinary.shippedProfile])
        XCTAssertEqual(result.status, 0, result.transcript)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.stdout,
                       "\(DFUKitBinary.shippedProfile): ok: profile 'vendor-ctrlpt', 6 commands, 4 steps\n")
    }

    func testShippedProfileIsFoundByName() throws {
        let result = try DFUKitBinary.run(["profile", "check", "vendor-ctrlpt"])
        XCTAssertEqual(result.status, 0, result.transcript)
        XCTAssertTrue(result.stdout.hasSuffix("profiles/vendor-ctrlpt.yaml: ok: profile 'vendor-ctrlpt', 6 commands, 4 steps\n"),
                      result.transcript)
    }

    func testUnknownKeyIsReportedAtItsPosition() throws {
        let directory = try TemporaryDirectory()
        let text = try brokenProfile(replacing: "  timeout: 5s\n  retries: 1\n",
                                     with: "  timeout: 5s\n  bogus-key: 1\n  retries: 1\n")
        try directory.write("unknown-key.yaml", text: text)
        let at = try position(of: "bogus-key", in: text)

        let result = try DFUKitBinary.run(["profile", "check", "unknown-key.yaml"], in: directory.path)
        XCTAssertEqual(result.status, 65, result.transcript)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, "unknown-key.yaml:\(at.line):\(at.column): error: "
                       + "unknown key 'bogus-key' in 'defaults' (known keys: endian, timeout, retries)\n")
    }

    func testDanglingCharacteristicReferenceIsReportedAtTheName() throws {
        let directory = try TemporaryDirectory()
        let text = try brokenProfile(replacing: "  status:\n    characteristic: control\n",
                                     with: "  status:\n    characteristic: contrl\n")
        try directory.write("dangling.yaml", text: text)
        let at = try position(of: "characteristic: contrl", in: text)

        let result = try DFUKitBinary.run(["profile", "check", "dangling.yaml"], in: directory.path)
        XCTAssertEqual(result.status, 65, result.transcript)
        XCTAssertEqual(result.stderr, "dangling.yaml:\(at.line):\(at.column + "characteristic: ".count): error: "
                       + "unknown characteristic 'contrl'; did you mean 'control'?\n")
    }

    func testUnknownCommandAndUnknownNameInExpression() throws {
        let directory = try TemporaryDirectory()
        var text = try brokenProfile(replacing: "        - send: status\n", with: "        - send: stauts\n")
        text = text.replacingOccurrences(of: "      from: from\n", with: "      from: fromm\n")
        try directory.write("two-errors.yaml", text: text)
        let command = try position(of: "send: stauts", in: text)
        let name = try position(of: "from: fromm", in: text)

        let result = try DFUKitBinary.run(["profile", "check", "two-errors.yaml"], in: directory.path)
        XCTAssertEqual(result.status, 65, result.transcript)
        XCTAssertEqual(result.stderrLines, [
            "two-errors.yaml:\(command.line):\(command.column + 6): error: unknown command 'stauts'; did you mean 'status'?",
            "two-errors.yaml:\(name.line):\(name.column + 6): error: unknown name 'fromm' in expression; did you mean 'from'?",
        ], result.transcript)
    }

    func testYAMLSyntaxErrorAndEmptyFile() throws {
        let directory = try TemporaryDirectory()
        try directory.write("syntax.yaml", text: "profile: x\n  bad: [\n")
        try directory.write("empty.yaml", text: "")

        let result = try DFUKitBinary.run(["profile", "check", "syntax.yaml", "empty.yaml"], in: directory.path)
        XCTAssertEqual(result.status, 65, result.transcript)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderrLines, [
            "syntax.yaml:2:6: error: YAML syntax error: mapping values are not allowed in this context",
            "empty.yaml:1:1: error: the profile is empty",
        ], result.transcript)
    }

    /// Every file is checked even after one fails; one bad file makes the run fail.
    func testSeveralFilesWithOneBad() throws {
        let directory = try TemporaryDirectory()
        try directory.write("good.yaml", text: try shippedProfileText())
        let bad = try brokenProfile(replacing: "  timeout: 5s\n  retries: 1\n", with: "  timeout: 5s\n  bogus-key: 1\n  retries: 1\n")
        try directory.write("bad.yaml", text: bad)
        let at = try position(of: "bogus-key", in: bad)
        try directory.write("also-good.yaml", text: try shippedProfileText())

        let result = try DFUKitBinary.run(["profile", "check", "good.yaml", "bad.yaml", "also-good.yaml"], in: directory.path)
        XCTAssertEqual(result.status, 65, result.transcript)
        XCTAssertEqual(result.stdoutLines, [
            "good.yaml: ok: profile 'vendor-ctrlpt', 6 commands, 4 steps",
            "also-good.yaml: ok: profile 'vendor-ctrlpt', 6 commands, 4 steps",
        ], result.transcript)
        XCTAssertEqual(result.stderrLines.count, 1, result.transcript)
        XCTAssertTrue(result.stderr.hasPrefix("bad.yaml:\(at.line):\(at.column): error: unknown key 'bogus-key'"), result.transcript)
    }

    func testMissingFileFails() throws {
        let directory = try TemporaryDirectory()
        let result = try DFUKitBinary.run(["profile", "check", "missing.yaml"], in: directory.path)
        XCTAssertEqual(result.status, 65, result.transcript)
        XCTAssertTrue(result.stderr.hasPrefix("missing.yaml: error: "), result.transcript)
        XCTAssertTrue(result.stderr.contains("available profiles: dialog-suota, mcuboot-recovery, mcumgr-smp, nordic-legacy-dfu, nordic-secure-dfu, silabs-ota, telink-ota, ti-oad, vendor-ctrlpt"), result.transcript)
    }
}
