import DFUKit

/// The `dfukit` command line: finds the subcommand, parses its options, runs it.
public enum DFUKitCommandLine {
    /// What `dfukit --version` prints: the library's version.
    public static var version: String { DFUKit.version }

    /// Every subcommand, by the words that name it.
    static var commands: [CommandEntry] {
        [
            CommandEntry(FlashCommand.self),
            CommandEntry(PackageCreateCommand.self),
            CommandEntry(PackageInspectCommand.self),
            CommandEntry(PackageVerifyCommand.self),
            CommandEntry(ProfileCheckCommand.self),
            CommandEntry(ProfileSchemaCommand.self),
            CommandEntry(ProfileTraceCommand.self),
            CommandEntry(ProfileVerifyCommand.self),
            CommandEntry(CaptureInspectCommand.self),
            CommandEntry(ProfilesCommand.self),
            CommandEntry(ScanCommand.self),
            CommandEntry(SimServeCommand.self),
            CommandEntry(InspectCommand.self),
            CommandEntry(ExecCommand.self),
            CommandEntry(BatchRunCommand.self),
            CommandEntry(SMPEchoCommand.self),
            CommandEntry(SMPResetCommand.self),
            CommandEntry(SMPImageListCommand.self),
            CommandEntry(SMPImageTestCommand.self),
            CommandEntry(SMPImageConfirmCommand.self),
            CommandEntry(SMPImageEraseCommand.self),
            CommandEntry(BatchReportCommand.self),
            CommandEntry(StationKeygenCommand.self),
            CommandEntry(StationAuditExportCommand.self),
            CommandEntry(StationAuditVerifyCommand.self),
            CommandEntry(StationResumeCommand.self),
            CommandEntry(StationReleaseCommand.self),
            CommandEntry(StationServeCommand.self),
            CommandEntry(SchemaOutputCommand.self),
            CommandEntry(CompletionCommand.self),
            CommandEntry(ManCommand.self),
        ]
    }

    /// Every subcommand as `--help`, the completion scripts and the man page describe it.
    public static var commandDescriptions: [CommandDescription] { commands.map(\.description) }

    /// Runs `arguments` (without the program name) and returns the exit status.
    public static func run(_ arguments: [String], console: any Console = StandardConsole()) async -> Int32 {
        guard let first = arguments.first else {
            console.error(overview)
            return ExitCode.usage
        }
        switch first {
        case "--version", "-V", "version":
            console.out("dfukit \(version)")
            return ExitCode.success
        case "--help", "-h":
            console.out(overview)
            return ExitCode.success
        case "help":
            return help(Array(arguments.dropFirst()), console: console)
        default:
            break
        }
        let table = CommandTable(commands.map(\.name))
        switch table.resolve(arguments) {
        case let .command(index, rest):
            return await run(commands[index], rest, console: console)
        case let .group(words, members, next):
            let usage = groupUsage(members)
            guard let next else {
                // Incomplete command line: the usage is a diagnostic, so it goes to standard error.
                console.error(usage)
                return ExitCode.usage
            }
            if next == "--help" || next == "-h" {
                console.out(usage)
                return ExitCode.success
            }
            let typed = (words + [next]).joined(separator: " ")
            console.error("error: unknown command 'dfukit \(typed)'"
                          + (didYouMean(arguments) ?? "; one of: " + members.map { commands[$0].name }.joined(separator: ", ")))
            return ExitCode.usage
        case .unknown:
            // With a likely meaning, one line says it; without, the list of commands follows.
            if let suggestion = didYouMean(arguments) {
                console.error("error: unknown command '\(first)'\(suggestion)\nRun 'dfukit --help' for the list of commands.")
            } else {
                console.error("error: unknown command '\(first)'\n\n\(overview)")
            }
            return ExitCode.usage
        }
    }

    /// `dfukit help [COMMAND...]`: the overview, a command's help, or a group's usage.
    private static func help(_ words: [String], console: any Console) -> Int32 {
        guard !words.isEmpty, words != ["--help"], words != ["-h"] else {
            console.out(overview)
            return ExitCode.success
        }
        let table = CommandTable(commands.map(\.name))
        switch table.resolve(words) {
        case let .command(index, rest) where rest.isEmpty:
            console.out(commands[index].help)
            return ExitCode.success
        case let .group(_, members, nil):
            console.out(groupUsage(members))
            return ExitCode.success
        default:
            console.error("error: no command 'dfukit \(words.joined(separator: " "))'" + (didYouMean(words) ?? "")
                          + "\nRun 'dfukit --help' for the list of commands.")
            return ExitCode.usage
        }
    }

    private static func didYouMean(_ words: [String]) -> String? {
        let typed = words.prefix { !$0.hasPrefix("-") }
        return Suggestion.command(Array(typed), among: commands.map(\.name)).map { "; did you mean 'dfukit \($0)'?" }
    }

    private static func groupUsage(_ members: [Int]) -> String {
        "usage:\n" + members.map { "  \(commands[$0].usage)" }.joined(separator: "\n")
    }

    private static func run(_ command: CommandEntry, _ arguments: [String], console: any Console) async -> Int32 {
        let name = "dfukit \(command.name)"
        let runner: (any Console) async -> Int32
        do {
            let parsed = try ParsedArguments(arguments, options: command.options, command: name)
            if parsed.wantsHelp {
                console.out(command.help)
                return ExitCode.success
            }
            runner = try command.make(parsed)
        } catch {
            console.error(error.printed)
            return error.exitCode
        }
        let status = await runner(console)
        // sim:...?state=FILE: the devices' memory, for the next command.
        let failures = SimulatorStateRegistry.shared.saveAll()
        for failure in failures { console.error("error: \(failure)") }
        return failures.isEmpty || status != ExitCode.success ? status : ExitCode.ioError
    }

    static var overview: String {
        var lines = ["dfukit \(version): update the firmware of Bluetooth Low Energy devices, driven by profiles.", "",
                     "usage: dfukit COMMAND [OPTIONS]", "", "commands:"]
        // The widest name, and two spaces, sets the column (`smp image confirm` is 17 wide).
        let column = (commands.map(\.name.count).max() ?? 0) + 2
        for command in commands {
            lines.append("  " + command.name.padding(toLength: column, withPad: " ", startingAt: 0) + command.summary)
        }
        lines += ["", "  " + "--version".padding(toLength: column, withPad: " ", startingAt: 0) + "print the version",
                  "  " + "help COMMAND".padding(toLength: column, withPad: " ", startingAt: 0) + "print a command's help", "",
                  "Run 'dfukit help COMMAND' or 'dfukit COMMAND --help' for a command's options."]
        return lines.joined(separator: "\n")
    }
}
