/// The `dfukit` command line: finds the subcommand, parses its options, runs it.
public enum DFUKitCommandLine {
    public static let version = "0.1.0"

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
            CommandEntry(ProfilesCommand.self),
            CommandEntry(ScanCommand.self),
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
        ]
    }

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
        case "--help", "-h", "help":
            console.out(overview)
            return ExitCode.success
        default:
            break
        }
        // Longest match of command words: "package inspect" before "package".
        for command in commands.sorted(by: { $0.name.count > $1.name.count }) {
            let words = command.name.split(separator: " ").map(String.init)
            guard arguments.count >= words.count, Array(arguments.prefix(words.count)) == words else { continue }
            return await run(command, Array(arguments.dropFirst(words.count)), console: console)
        }
        let groups = Set(commands.compactMap { $0.name.split(separator: " ").count > 1 ? String($0.name.split(separator: " ")[0]) : nil })
        if groups.contains(first) {
            let members = commands.filter { $0.name.hasPrefix(first + " ") }
            let usage = "usage:\n" + members.map { "  \($0.usage)" }.joined(separator: "\n")
            if arguments.count == 1 {
                // Incomplete command line: the usage is a diagnostic, so it goes to standard error.
                console.error(usage)
                return ExitCode.usage
            }
            if arguments[1] == "--help" || arguments[1] == "-h" {
                console.out(usage)
                return ExitCode.success
            }
            console.error("error: unknown command 'dfukit \(first) \(arguments[1])'; one of: "
                          + members.map(\.name).joined(separator: ", "))
            return ExitCode.usage
        }
        console.error("error: unknown command '\(first)'\n\n\(overview)")
        return ExitCode.usage
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
            console.error("error: \(error)")
            return ExitCode.usage
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
        lines += ["", "  " + "--version".padding(toLength: column, withPad: " ", startingAt: 0) + "print the version", "",
                  "Run 'dfukit COMMAND --help' for a command's options."]
        return lines.joined(separator: "\n")
    }
}
