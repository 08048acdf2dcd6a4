import Foundation
import XCTest

/// Checks what a command printed with `--json` against the schema `dfukit schema output NAME`
/// publishes, with a validator we did not write: python3-jsonschema (Debian's, installed by
/// `make deps`) through scripts/check-json-schema.py. A missing validator fails the test.
enum OutputSchemaCheck {
    /// Debian's interpreter, the one python3-jsonschema is installed for.
    static let python = URL(fileURLWithPath: "/usr/bin/python3")
    static let script = DFUKitBinary.repositoryRoot.appendingPathComponent("scripts/check-json-schema.py").path

    /// What the validator said, and whether every document was valid.
    struct Verdict {
        var valid: Bool
        /// One line per mistake, `LABEL.json: PATH: MESSAGE`, then `N checked, N invalid`.
        var lines: [String]
        var transcript: String
    }

    /// Runs the validator over `outputs` (each one command's standard output, named by its
    /// label) against the published schema of `output`.
    static func check(_ outputs: [(label: String, stdout: String)], against output: String,
                      interpreterOptions: [String] = []) throws -> Verdict {
        let directory = try TemporaryDirectory(prefix: "dfukit-output-schema")
        let published = try DFUKitBinary.run(["schema", "output", output])
        guard published.status == 0 else {
            throw ProcessFailure(description: "dfukit schema output \(output) failed:\n\(published.transcript)")
        }
        let schema = try directory.write("\(output).schema.json", text: published.stdout)
        var files: [String] = []
        for (label, stdout) in outputs {
            files.append(try directory.write("\(label).json", text: stdout))
        }
        let result = try Subprocess.run(python, interpreterOptions + [script, schema] + files, in: directory.path)
        // Standard error holds only a missing validator or a bad schema: a failure either way.
        let lines = result.stdoutLines.map { $0.replacingOccurrences(of: directory.path + "/", with: "") }
        return Verdict(valid: result.status == 0 && result.stderr.isEmpty, lines: lines,
                       transcript: result.transcript.replacingOccurrences(of: directory.path + "/", with: ""))
    }

    /// Fails the test, with the validator's words (file, path and reason), unless every output
    /// follows the schema.
    static func assertValid(_ outputs: [(label: String, stdout: String)], against output: String,
                            file: StaticString = #filePath, line: UInt = #line) {
        do {
            let verdict = try check(outputs, against: output)
            XCTAssertTrue(verdict.valid, "--json outputs that do not follow 'dfukit schema output \(output)':\n"
                          + verdict.transcript, file: file, line: line)
            XCTAssertEqual(verdict.lines.last, "\(outputs.count) checked, 0 invalid", verdict.transcript, file: file, line: line)
        } catch {
            XCTFail("cannot check against 'dfukit schema output \(output)': \(error)", file: file, line: line)
        }
    }

    static func assertValid(_ stdout: String, against output: String, label: String = "output",
                            file: StaticString = #filePath, line: UInt = #line) {
        assertValid([(label, stdout)], against: output, file: file, line: line)
    }
}
