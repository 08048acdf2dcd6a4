import Foundation
import XCTest

/// The README's "A short tour of the CLI" runs as written: every command of its shell block
/// that needs no radio is run by bash, in order, with the built `dfukit` first on `PATH`, in a
/// scratch directory that sees the repository's `profiles/` and `firmware-samples/`. A command
/// that fails (or a tour that stops reading right) fails this test.
final class ReadmeTourTests: XCTestCase {
    /// Transports that need a radio: those commands run in `make test-bumble` and `make test-kernel`.
    private static let radioTransports = ["hci:", "bluez:"]
    /// Tour commands the README says end otherwise than 0, with what they must print.
    private static let documentedEndings: [String: (status: Int32, says: String)] = [
        // The generic device answers zero where only a real device knows (next_offset).
        "dfukit profile trace vendor-ctrlpt app.zip": (1, "the generic device answers what a successful answer holds"),
        // Devices 1 and 2 of this seeded fleet fail: the line halts itself.
        "dfukit batch run --profile vendor-ctrlpt --package app.zip --device 'sim:vendor-ctrlpt?fleet=8&fault-rate=0.3&seed=6' "
            + "--ledger sqlite:east.sqlite --line east --retries 0 --halt-when 'failed >= 2 of last 3' --exit-when-halted":
            (75, "line east halted: failed >= 2 of last 3 held"),
    ]

    func testEveryTourCommandWithoutARadioRuns() throws {
        let commands = try Self.tourCommands()
        let simulated = commands.filter { command in !Self.radioTransports.contains { command.contains($0) } }
        XCTAssertGreaterThan(simulated.count, 25, "the tour was read: \(commands)")
        XCTAssertTrue(simulated.contains { $0.hasPrefix("dfukit flash") }, "\(simulated)")

        let directory = try TemporaryDirectory(prefix: "dfukit-tour")
        let root = DFUKitBinary.repositoryRoot
        for shared in ["profiles", "firmware-samples", "Tests"] {
            try FileManager.default.createSymbolicLink(atPath: directory.file(shared),
                                                       withDestinationPath: root.appendingPathComponent(shared).path)
        }
        let binaryDirectory = try DFUKitBinary.located.get().deletingLastPathComponent().path
        var environment = ProcessInfo.processInfo.environment
        environment["DFUKIT_PROFILE_PATH"] = nil
        environment["PATH"] = binaryDirectory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        for command in simulated {
            let script = Self.runnable(command)
            let result = try Subprocess.run(URL(fileURLWithPath: "/bin/bash"), ["-o", "pipefail", "-c", script],
                                            in: directory.path, environment: environment, timeout: 120)
            let expected = Self.documentedEndings[command] ?? (0, "")
            XCTAssertEqual(result.status, expected.status, "README tour: \(command)\n\(result.transcript)")
            XCTAssertTrue(expected.says.isEmpty || result.stderr.contains(expected.says) || result.stdout.contains(expected.says),
                          "README tour: \(command) should say '\(expected.says)'\n\(result.transcript)")
        }
    }

    /// The tour's shell block, one command per entry: continuation lines joined, comments and
    /// `[optional]` parts taken out.
    static func tourCommands() throws -> [String] {
        let readme = try String(contentsOf: DFUKitBinary.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        guard let section = readme.range(of: "## A short tour of the CLI"),
              let open = readme.range(of: "```sh\n", range: section.upperBound..<readme.endIndex),
              let close = readme.range(of: "```", range: open.upperBound..<readme.endIndex) else {
            throw ProcessFailure(description: "README.md has no shell block under 'A short tour of the CLI'")
        }
        var commands: [String] = []
        var pending = ""
        for rawLine in readme[open.upperBound..<close.lowerBound].split(separator: "\n") {
            var line = Self.withoutComment(String(rawLine)).trimmingCharacters(in: .whitespaces)
            let continues = line.hasSuffix("\\")
            if continues { line.removeLast() }
            pending += (pending.isEmpty ? "" : " ") + line.trimmingCharacters(in: .whitespaces)
            if !continues {
                if !pending.isEmpty { commands.append(pending) }
                pending = ""
            }
        }
        return commands.map(Self.withoutOptionalParts)
    }

    /// The line up to a `#` that starts a comment (after whitespace, outside quotes).
    private static func withoutComment(_ line: String) -> String {
        var quote: Character?
        var previous: Character = " "
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "#", previous == " " {
                return String(line[..<index])
            }
            previous = character
        }
        return line
    }

    /// `dfukit profiles [--json | --names]` -> `dfukit profiles`.
    private static func withoutOptionalParts(_ command: String) -> String {
        command.replacingOccurrences(of: #"\s*\[[^\]]*\]"#, with: "", options: .regularExpression)
    }

    /// The command as bash runs it here: `man -l -` becomes a check that groff reads the page
    /// when `man` is not installed (a minimal Debian has groff-base, not man-db).
    private static func runnable(_ command: String) -> String {
        guard command.contains("| man -l -"), (try? Subprocess.tool("sh", ["-c", "command -v man"])) == nil else {
            return command
        }
        return command.replacingOccurrences(of: "| man -l -", with: "| groff -man -Tutf8 -ww -z")
    }
}
