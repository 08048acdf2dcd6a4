import DFUCommandLine
import Foundation
import XCTest

/// Issue 13, item 7: suggestions for mistyped commands and options, `dfukit help COMMAND`,
/// messages that say their kind once, and shell completion and a man page made from the same
/// option definitions as `--help` (each checked against the command table, so a command or an
/// option one of them forgets fails here).
final class HelpAndDiscoveryTests: XCTestCase {
    private var commands: [CommandDescription] { DFUKitCommandLine.commandDescriptions }

    func testMistypedCommandsGetTheNearestCommand() throws {
        let cases: [(arguments: [String], first: String)] = [
            (["flsh"], "error: unknown command 'flsh'; did you mean 'dfukit flash'?"),
            (["flsh", "-p", "vendor-ctrlpt"], "error: unknown command 'flsh'; did you mean 'dfukit flash'?"),
            (["pakage", "create"], "error: unknown command 'pakage'; did you mean 'dfukit package create'?"),
            (["package", "inspekt", "x.zip"], "error: unknown command 'dfukit package inspekt'; did you mean 'dfukit package inspect'?"),
            (["smp", "image", "lst"], "error: unknown command 'dfukit smp image lst'; did you mean 'dfukit smp image list'?"),
        ]
        for (arguments, first) in cases {
            let result = try DFUKitBinary.run(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.transcript)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
            XCTAssertEqual(result.stderrLines.first, first, "\(arguments): \(result.transcript)")
        }
        // Nothing close: no guess, the list of commands instead.
        let far = try DFUKitBinary.run(["frobnicate"])
        XCTAssertEqual(far.stderrLines.first, "error: unknown command 'frobnicate'", far.transcript)
        XCTAssertFalse(far.stderr.contains("did you mean"), far.transcript)
    }

    func testMistypedOptionsGetTheNearestOptionOfTheirCommand() throws {
        let cases: [(arguments: [String], first: String)] = [
            (["flash", "--profle", "vendor-ctrlpt"], "error: unknown option '--profle' for 'dfukit flash'; did you mean '--profile'?"),
            (["flash", "--devcie=sim:vendor-ctrlpt"], "error: unknown option '--devcie' for 'dfukit flash'; did you mean '--device'?"),
            (["package", "create", "--verison", "1.0.0"],
             "error: unknown option '--verison' for 'dfukit package create'; did you mean '--version'?"),
            (["batch", "run", "--concurency", "4"], "error: unknown option '--concurency' for 'dfukit batch run'; did you mean '--concurrency'?"),
            // The modes are the profile's (`mode: { values: [...] }`), checked as every parameter is.
            (["flash", "--profile", "mcumgr-smp", "--device", "sim:mcumgr-smp",
              DFUKitBinary.repositoryRoot.appendingPathComponent("firmware-samples/mcuboot/app-unsigned.bin").path,
              "--mode", "test-and-confrim"],
             "error: --mode test-and-confrim: parameter 'mode' is 'test-and-confrim', not one of its values (test-and-confirm, "
                + "confirm-only, test-only, upload-only); did you mean 'test-and-confirm'?"),
        ]
        for (arguments, first) in cases {
            let result = try DFUKitBinary.run(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.transcript)")
            XCTAssertEqual(result.stderrLines.first, first, "\(arguments): \(result.transcript)")
            XCTAssertEqual(result.stderrLines.last, "See 'dfukit \(arguments[0] == "flash" ? "flash" : arguments.prefix(2).joined(separator: " ")) --help'.",
                           result.transcript)
        }
    }

    /// `dfukit help WORDS` prints exactly what `dfukit WORDS --help` prints, for every command.
    func testHelpCommandPrintsEachCommandsHelp() throws {
        XCTAssertGreaterThan(commands.count, 15)
        for command in commands {
            let words = command.name.split(separator: " ").map(String.init)
            let help = try DFUKitBinary.run(["help"] + words)
            let flag = try DFUKitBinary.run(words + ["--help"])
            XCTAssertEqual(help.status, 0, help.transcript)
            XCTAssertEqual(help.stderr, "", help.transcript)
            XCTAssertEqual(help.stdout, flag.stdout, command.name)
            XCTAssertEqual(help.stdoutLines.first, "usage: \(command.usage)", help.transcript)
        }
        let batch = try DFUKitBinary.run(["help", "batch", "run"])
        XCTAssertTrue(batch.stdout.hasPrefix("usage: dfukit batch run [LINE.yaml]"), batch.transcript)

        let group = try DFUKitBinary.run(["help", "smp", "image"])
        XCTAssertEqual(group.status, 0, group.transcript)
        XCTAssertEqual(group.stdoutLines, ["usage:", "  dfukit smp image list --device DEVICE [--json]",
                                           "  dfukit smp image test --device DEVICE HASH [--json]",
                                           "  dfukit smp image confirm --device DEVICE [--json]",
                                           "  dfukit smp image erase --device DEVICE [--json]"])

        let overview = try DFUKitBinary.run(["help"])
        XCTAssertEqual(overview.status, 0, overview.transcript)
        XCTAssertTrue(overview.stdout.contains("\n  help COMMAND "), overview.transcript)
        XCTAssertEqual(try DFUKitBinary.run(["help", "--help"]).stdout, overview.stdout)

        let wrong = try DFUKitBinary.run(["help", "flsh"])
        XCTAssertEqual(wrong.status, 64, wrong.transcript)
        XCTAssertEqual(wrong.stdout, "")
        XCTAssertEqual(wrong.stderrLines, ["error: no command 'dfukit flsh'; did you mean 'dfukit flash'?",
                                           "Run 'dfukit --help' for the list of commands."])
    }

    /// A transport that cannot be used says so once, whichever command reports it.
    func testTransportUnavailableIsSaidOnce() throws {
        for arguments in [["scan", "--device", "hci:tcp:127.0.0.1:9"], ["inspect", "hci:tcp:127.0.0.1:9/F0:DF:00:00:01:01"]] {
            let result = try DFUKitBinary.run(arguments)
            XCTAssertEqual(result.status, 69, result.transcript)
            XCTAssertTrue(result.stderr.hasPrefix("error: transport unavailable: hci:tcp:127.0.0.1:9: cannot connect"),
                          result.transcript)
            XCTAssertFalse(result.stderr.contains("unavailable: transport unavailable"), result.transcript)
        }
    }

    // MARK: Shell completion

    func testBashCompletionCompletesCommandsOptionsAndValues() throws {
        let script = try completionScript("bash")
        let binary = try DFUKitBinary.located.get().path
        let lines = [
            "dfukit fl", "dfukit ", "dfukit smp image c", "dfukit help smp ", "dfukit flash --pro",
            "dfukit flash --mode ", "dfukit flash --mode=test-o", "\(binary) flash --profile vendor",
            "dfukit flash -d sim:nordic-s",
        ] + commands.map { "dfukit \($0.name) -" }
        let output = try runShell(["bash", "-c", """
            source "$1"; shift
            complete -p dfukit
            for line in "$@"; do
                COMP_LINE=$line; COMP_POINT=${#COMP_LINE}
                read -r -a COMP_WORDS <<< "$COMP_LINE"
                [[ $COMP_LINE == *' ' ]] && COMP_WORDS+=('')
                COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
                _dfukit
                printf '%s\\t%s\\n' "$line" "${COMPREPLY[*]}"
            done
            """, "completion-test", script] + lines)
        XCTAssertEqual(output.first, "complete -F _dfukit dfukit")
        let answers = Dictionary(output.dropFirst().map { line -> (String, [String]) in
            let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? parts[1].split(separator: " ").map(String.init) : [])
        }, uniquingKeysWith: { first, _ in first })
        XCTAssertEqual(answers["dfukit fl"], ["flash"])
        XCTAssertEqual(Set(answers["dfukit "] ?? []), Set(commands.map { String($0.name.split(separator: " ")[0]) } + ["help", "--help", "--version"]))
        XCTAssertEqual(answers["dfukit smp image c"], ["confirm"])
        XCTAssertEqual(answers["dfukit help smp "], ["echo", "reset", "image"])
        XCTAssertEqual(answers["dfukit flash --pro"], ["--profile"])
        XCTAssertEqual(answers["dfukit flash --mode "], ["test-and-confirm", "confirm-only", "test-only", "upload-only"])
        XCTAssertEqual(answers["dfukit flash --mode=test-o"], ["test-only"], "bash replaces only what follows '='")
        XCTAssertEqual(answers["\(binary) flash --profile vendor"], ["vendor-ctrlpt"])
        XCTAssertEqual(answers["dfukit flash -d sim:nordic-s"], ["nordic-secure-dfu"], "bash replaces only what follows ':'")
        for command in commands {
            XCTAssertEqual(Set(answers["dfukit \(command.name) -"] ?? []), Set(command.options.flatMap(\.names) + ["--help", "-h"]),
                           "the options bash offers for '\(command.name)'")
        }
    }

    func testZshCompletionOffersTheSameWords() throws {
        let script = try completionScript("zsh")
        XCTAssertEqual(try String(contentsOfFile: script, encoding: .utf8).split(separator: "\n").first, "#compdef dfukit")
        // Outside a completion widget zsh's completion builtins do not exist: stand-ins print
        // what the function offers (zsh then filters by the prefix typed).
        let output = try runShell(["zsh", "-c", """
            compdef() { : }
            _describe() { local name=${@[-1]}; print -rl -- ${${(P)name}%%:*} }
            compadd() { while [[ $1 != -- ]]; do shift; done; shift; print -rl -- "$@" }
            _files() { print -r -- '<files>' }
            source "$1"; shift
            for line in "$@"; do
                words=("${(@s: :)line}"); CURRENT=${#words}
                print -r -- "=== $line"
                _dfukit
            done
            """, "completion-test", script, "dfukit fl", "dfukit smp image ", "dfukit flash --mode ", "dfukit flash --device ",
            "dfukit flash -"])
        let answers = groups(output)
        XCTAssertTrue(answers["dfukit fl"]?.contains("flash") ?? false, "\(output)")
        XCTAssertEqual(answers["dfukit smp image "], ["list", "test", "confirm", "erase"])
        XCTAssertEqual(answers["dfukit flash --mode "], ["test-and-confirm", "confirm-only", "test-only", "upload-only"])
        XCTAssertTrue(answers["dfukit flash --device "]?.contains("sim:vendor-ctrlpt") ?? false, "\(output)")
        let flash = try XCTUnwrap(commands.first { $0.name == "flash" })
        XCTAssertEqual(Set(answers["dfukit flash -"] ?? []), Set(flash.options.flatMap(\.names) + ["--help", "-h"]))
    }

    func testFishCompletionOffersTheSameWords() throws {
        let script = try completionScript("fish")
        let output = try runShell(["fish", "-c", """
            source $argv[1]
            for line in $argv[2..-1]
                echo "=== $line"
                complete -C "$line" | string replace -r '\\t.*' ''
            end
            """, script, "dfukit fl", "dfukit smp image ", "dfukit flash --mode ", "dfukit help package ", "dfukit flash --"])
        let answers = groups(output)
        XCTAssertEqual(answers["dfukit fl"], ["flash"])
        XCTAssertEqual(Set(answers["dfukit smp image "] ?? []), ["list", "test", "confirm", "erase"])
        XCTAssertEqual(Set(answers["dfukit flash --mode "] ?? []), ["test-and-confirm", "confirm-only", "test-only", "upload-only"])
        XCTAssertEqual(Set(answers["dfukit help package "] ?? []), ["create", "inspect", "verify"])
        let flash = try XCTUnwrap(commands.first { $0.name == "flash" })
        XCTAssertEqual(Set(answers["dfukit flash --"] ?? []), Set(flash.options.flatMap(\.names).filter { $0.hasPrefix("--") } + ["--help"]))
    }

    // MARK: Man page

    /// The page has a section for every command of the table, listing each of its options, and
    /// groff reads it without a warning.
    func testManPageListsEveryCommandWithEveryOption() throws {
        let result = try DFUKitBinary.run(["man"])
        XCTAssertEqual(result.status, 0, result.transcript)
        XCTAssertEqual(result.stderr, "")
        let page = result.stdout
        XCTAssertTrue(page.contains(".TH DFUKIT 1 "), page)
        let sections = page.components(separatedBy: "\n.SS ").dropFirst()
        XCTAssertEqual(sections.count, commands.count, "one .SS per command")
        for command in commands {
            guard let section = sections.first(where: { $0.hasPrefix("\"dfukit \(command.name)\"\n") }) else {
                XCTFail("the man page has no section for 'dfukit \(command.name)'")
                continue
            }
            let body = section.components(separatedBy: "\n.SH ")[0]
            XCTAssertTrue(body.contains(command.usage.replacingOccurrences(of: "-", with: "\\-")), "usage of \(command.name)")
            for option in command.options {
                let head = option.names.map { "\\fB" + $0.replacingOccurrences(of: "-", with: "\\-") + "\\fR" }.joined(separator: ", ")
                XCTAssertTrue(body.contains(".TP\n" + head), "'dfukit \(command.name)': the man page lacks \(option.names)")
            }
        }
        for code in ["64", "65", "69"] { XCTAssertTrue(page.contains(".TP\n\(code)\n"), "exit status \(code)") }

        let directory = try TemporaryDirectory()
        let file = try directory.write("dfukit.1", text: page)
        let groff = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["groff", "-man", "-Tutf8", "-ww", "-z", file])
        XCTAssertEqual(groff.status, 0, groff.transcript)
        XCTAssertEqual(groff.stderr, "", "groff warns about the page")
    }

    // MARK: Helpers

    private func completionScript(_ shell: String) throws -> String {
        let result = try DFUKitBinary.run(["completion", shell])
        XCTAssertEqual(result.status, 0, result.transcript)
        XCTAssertEqual(result.stderr, "")
        let directory = try TemporaryDirectory()
        let path = try directory.write("dfukit.\(shell)", text: result.stdout)
        scratch.append(directory)
        return path
    }

    private var scratch: [TemporaryDirectory] = []

    /// Runs a shell (which must be installed: scripts/install-deps.sh installs bash, zsh and
    /// fish) and returns its standard output's lines.
    private func runShell(_ arguments: [String]) throws -> [String] {
        let result = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), arguments)
        guard result.status == 0, result.stderr.isEmpty else {
            throw ProcessFailure(description: "\(arguments[0]) failed (is it installed? scripts/install-deps.sh installs it):\n\(result.transcript)")
        }
        return result.stdoutLines
    }

    /// `=== LINE` headers and the words after each.
    private func groups(_ lines: [String]) -> [String: [String]] {
        var answers: [String: [String]] = [:]
        var current: String?
        for line in lines {
            if line.hasPrefix("=== ") {
                current = String(line.dropFirst(4))
                answers[current!] = []
            } else if let current {
                answers[current, default: []].append(line)
            }
        }
        return answers
    }
}
