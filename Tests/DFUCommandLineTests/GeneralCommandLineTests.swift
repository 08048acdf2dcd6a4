import DFUCommandLine
import XCTest

/// `dfukit` as a whole: version, help, and command lines that cannot run (exit 64).
final class GeneralCommandLineTests: XCTestCase {
    func testVersionPrintsOnlyTheVersion() throws {
        for flag in ["--version", "-V", "version"] {
            let result = try DFUKitBinary.run([flag])
            XCTAssertEqual(result.status, 0, result.transcript)
            XCTAssertEqual(result.stdout, "dfukit \(DFUKitCommandLine.version)\n", flag)
            XCTAssertEqual(result.stderr, "", flag)
        }
    }

    func testHelpListsEveryCommand() throws {
        for flag in ["--help", "-h", "help"] {
            let result = try DFUKitBinary.run([flag])
            XCTAssertEqual(result.status, 0, result.transcript)
            XCTAssertEqual(result.stderr, "")
            XCTAssertTrue(result.stdout.hasPrefix("dfukit \(DFUKitCommandLine.version): "), result.stdout)
            XCTAssertTrue(result.stdout.contains("\nusage: dfukit COMMAND [OPTIONS]\n"), result.stdout)
            for command in ["flash", "package create", "package inspect", "package verify", "profile check", "--version"] {
                XCTAssertTrue(result.stdout.contains("\n  \(command) "), "'\(command)' missing from:\n\(result.stdout)")
            }
            // Every command line has its name, two spaces at least, then its summary, all in one column.
            let listed = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).drop { $0 != "commands:" }.dropFirst().prefix { !$0.isEmpty }
            XCTAssertGreaterThan(listed.count, 10)
            let columns = Set(listed.map { line in line.dropFirst(2).range(of: "  ").map { line.distance(from: line.startIndex, to: $0.lowerBound) } })
            XCTAssertFalse(columns.contains(nil), "a name runs into its summary:\n\(result.stdout)")
            let starts = Set(listed.compactMap { line in line.dropFirst(2).range(of: "  ").map { range in
                line[range.upperBound...].firstIndex { $0 != " " }.map { line.distance(from: line.startIndex, to: $0) } } ?? nil })
            XCTAssertEqual(starts.count, 1, "summaries start in different columns:\n\(result.stdout)")
        }
    }

    /// Each subcommand's `--help` starts with its exact usage line, lists its options, and
    /// works even when the command's required options are missing.
    func testEverySubcommandHasHelp() throws {
        let expected: [(command: [String], usage: String, options: [String])] = [
            (["flash"], "usage: dfukit flash --profile NAME|FILE --device TRANSPORT[/ADDRESS] PKG [--json]",
             ["--profile, -p NAME|FILE", "--device, -d DEVICE", "--json", "-h, --help"]),
            (["package", "create"], "usage: dfukit package create --profile P --version V --output OUT.zip IN.bin|IN.hex...",
             ["--profile P", "--version V", "--output, -o OUT.zip", "--name NAME", "-h, --help"]),
            (["package", "inspect"], "usage: dfukit package inspect PKG [--json]", ["--json", "-h, --help"]),
            (["package", "verify"], "usage: dfukit package verify PKG [--key PUB.pem] [--json]",
             ["--key PUB.pem", "--json", "-h, --help"]),
            (["profile", "check"], "usage: dfukit profile check FILE...", []),
        ]
        for (command, usage, options) in expected {
            for flag in ["--help", "-h"] {
                let result = try DFUKitBinary.run(command + [flag])
                XCTAssertEqual(result.status, 0, result.transcript)
                XCTAssertEqual(result.stderr, "", result.transcript)
                XCTAssertEqual(result.stdoutLines.first, usage, result.transcript)
                for option in options {
                    XCTAssertTrue(result.stdoutLines.contains { $0.hasPrefix("  " + option + " ") },
                                  "\(command) --help lacks '\(option)':\n\(result.stdout)")
                }
            }
        }
    }

    func testFlashHelpDocumentsTransportsAndExitCodes() throws {
        let result = try DFUKitBinary.run(["flash", "--help"])
        XCTAssertEqual(result.status, 0, result.transcript)
        for fragment in ["sim:NAME", "fault=disconnect-after:BYTES", "unresponsive-after:BYTES", "69 transport unavailable"] {
            XCTAssertTrue(result.stdout.contains(fragment), "missing '\(fragment)':\n\(result.stdout)")
        }
    }

    func testNoArgumentsIsAUsageError() throws {
        let result = try DFUKitBinary.run([])
        XCTAssertEqual(result.status, 64, result.transcript)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.contains("usage: dfukit COMMAND [OPTIONS]"), result.transcript)
    }

    func testUnknownCommandIsNamed() throws {
        let result = try DFUKitBinary.run(["frobnicate", "--now"])
        XCTAssertEqual(result.status, 64, result.transcript)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderrLines.first, "error: unknown command 'frobnicate'", result.transcript)
        XCTAssertTrue(result.stderr.contains("usage: dfukit COMMAND [OPTIONS]"), result.transcript)
    }

    func testUnknownSubcommandOfAGroupIsNamed() throws {
        let result = try DFUKitBinary.run(["package", "frobnicate"])
        XCTAssertEqual(result.status, 64, result.transcript)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr,
                       "error: unknown command 'dfukit package frobnicate'; one of: package create, package inspect, package verify\n")
    }

    /// `dfukit package` alone is incomplete: the group's usage goes to standard error, exit 64.
    func testGroupWithoutSubcommandShowsItsUsageOnStandardError() throws {
        let result = try DFUKitBinary.run(["package"])
        XCTAssertEqual(result.status, 64, result.transcript)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, """
            usage:
              dfukit package create --profile P --version V --output OUT.zip IN.bin|IN.hex...
              dfukit package inspect PKG [--json]
              dfukit package verify PKG [--key PUB.pem] [--json]

            """)

        let help = try DFUKitBinary.run(["profile", "--help"])
        XCTAssertEqual(help.status, 0, help.transcript)
        XCTAssertEqual(help.stdout, "usage:\n  dfukit profile check FILE...\n  dfukit profile schema\n  dfukit profile trace "
                       + "PROFILE PACKAGE [--device DEVICE] [--mtu N] [--set NAME=VALUE]... [--answer COMMAND.FIELD=EXPR]... [--json]\n"
                       + "  dfukit profile verify PROFILE --against CAPTURE --package PKG [--set NAME=VALUE]... [--force] [--json]\n")
        XCTAssertEqual(help.stderr, "")
    }

    func testUnknownOptionIsNamed() throws {
        let result = try DFUKitBinary.run(["package", "inspect", "--bogus", "firmware.zip"])
        XCTAssertEqual(result.status, 64, result.transcript)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, """
            error: unknown option '--bogus' for 'dfukit package inspect'
            See 'dfukit package inspect --help'.

            """)

        let flash = try DFUKitBinary.run(["flash", "--profile", "vendor-ctrlpt", "--device", "sim:vendor-ctrlpt",
                                          "--speed=fast", "firmware.zip"])
        XCTAssertEqual(flash.status, 64, flash.transcript)
        XCTAssertEqual(flash.stderrLines.first, "error: unknown option '--speed' for 'dfukit flash'", flash.transcript)
    }

    func testMissingRequiredOptionIsNamed() throws {
        let create = try DFUKitBinary.run(["package", "create", "--profile", "vendor-ctrlpt", "--output", "out.zip", "in.bin"])
        XCTAssertEqual(create.status, 64, create.transcript)
        XCTAssertEqual(create.stdout, "")
        XCTAssertEqual(create.stderr, "error: missing required option '--version'\nSee 'dfukit package create --help'.\n")

        let flash = try DFUKitBinary.run(["flash", "--profile", "vendor-ctrlpt", "firmware.zip"])
        XCTAssertEqual(flash.status, 64, flash.transcript)
        XCTAssertEqual(flash.stderr, "error: missing required option '--device'\nSee 'dfukit flash --help'.\n")
    }

    func testMalformedOptionsAndPositionals() throws {
        let cases: [(arguments: [String], message: String)] = [
            (["flash", "--device", "sim:vendor-ctrlpt", "--profile"], "error: option '--profile' needs a value (NAME|FILE)"),
            (["flash", "-p", "a", "--profile", "b", "-d", "sim:vendor-ctrlpt", "x.zip"], "error: option '--profile' was given twice"),
            (["flash", "-p", "vendor-ctrlpt", "-d", "sim:vendor-ctrlpt"], "error: name the package to flash"),
            (["flash", "-p", "vendor-ctrlpt", "-d", "sim:vendor-ctrlpt", "a.zip", "b.zip"], "error: name exactly one package"),
            (["package", "inspect", "--json=yes", "a.zip"], "error: option '--json' takes no value"),
            (["package", "inspect"], "error: name exactly one package"),
            (["package", "create", "--profile", "p", "--version", "1", "-o", "o.zip"],
             "error: name at least one input image (.bin or .hex)"),
            (["package", "create", "--profile", "p", "--version", "1", "-o", "o.zip", "--name", "a", "x.bin", "y.bin"],
             "error: give one --name per input image (1 names, 2 images)"),
            (["profile", "check"], "error: name at least one profile file"),
        ]
        for (arguments, message) in cases {
            let result = try DFUKitBinary.run(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.transcript)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
            XCTAssertEqual(result.stderrLines.first, message, "\(arguments): \(result.transcript)")
            XCTAssertEqual(result.stderrLines.count, 2, "\(arguments): \(result.transcript)")
            XCTAssertTrue(result.stderrLines.last?.hasPrefix("See 'dfukit ") ?? false, "\(arguments): \(result.transcript)")
        }
    }
}
