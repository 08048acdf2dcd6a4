/// One `dfukit` subcommand: its help, its options, and how it runs once parsed.
protocol Command {
    /// The words after `dfukit`, e.g. "package inspect".
    static var name: String { get }
    static var summary: String { get }
    /// The synopsis line after "usage: ".
    static var usage: String { get }
    /// More text shown by `--help`, after the options.
    static var discussion: String { get }
    static var options: [OptionSpec] { get }

    /// Checks the arguments (throwing `UsageError`, exit 64) before anything runs.
    init(_ arguments: ParsedArguments) throws(UsageError)
    func run(_ console: any Console) async -> Int32
}

extension Command {
    static var discussion: String { "" }

    static var help: String {
        var lines = ["usage: \(usage)", "", summary]
        if !options.isEmpty {
            lines.append("")
            lines.append("options:")
            for option in options {
                var left = option.names.joined(separator: ", ")
                if let value = option.valueName { left += " \(value)" }
                lines.append("  " + left.padding(toLength: max(left.count, 26), withPad: " ", startingAt: 0) + "  " + option.help)
            }
            lines.append("  -h, --help                  show this help")
        }
        if !discussion.isEmpty {
            lines.append("")
            lines.append(discussion)
        }
        return lines.joined(separator: "\n")
    }
}

/// A subcommand as `--help`, the completion scripts and the man page describe it: all three
/// are made from these values.
public struct CommandDescription: Sendable {
    /// The words after `dfukit`, e.g. "package inspect".
    public let name: String
    public let summary: String
    /// The synopsis, starting with `dfukit`.
    public let usage: String
    public let options: [OptionSpec]
    public let discussion: String
    /// The whole `--help` text.
    public let help: String
}

/// A subcommand's static description and a way to parse and run it, without existential
/// metatypes.
struct CommandEntry {
    let description: CommandDescription
    /// Parses the arguments and returns the command ready to run.
    let make: (ParsedArguments) throws(UsageError) -> (any Console) async -> Int32

    var name: String { description.name }
    var summary: String { description.summary }
    var usage: String { description.usage }
    var options: [OptionSpec] { description.options }
    var help: String { description.help }

    init<C: Command>(_ type: C.Type) {
        description = CommandDescription(name: C.name, summary: C.summary, usage: C.usage, options: C.options,
                                         discussion: C.discussion, help: C.help)
        make = { (arguments) throws(UsageError) in
            let command = try C(arguments)
            return { console in await command.run(console) }
        }
    }
}
