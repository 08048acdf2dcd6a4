import DFUKit

/// What a shell completes for `dfukit`, read from the command table: the words that name
/// commands and groups, each command's options and what each option's value is. The bash, zsh
/// and fish scripts are three renderings of this one model.
struct CompletionModel {
    /// A group of commands (`package`, `smp image`) or the top level (`""`), and the words
    /// that may follow it.
    struct Level {
        var prefix: String
        var words: [(word: String, summary: String)]
    }

    var commands: [CommandDescription]
    var levels: [Level]
    /// What `--device` offers: every simulated device, and the radio transports' prefixes.
    var deviceWords: [String]

    init(commands: [CommandDescription]) {
        self.commands = commands
        var levels: [Level] = []
        var prefixes = [""]
        for command in commands {
            let words = command.name.split(separator: " ").map(String.init)
            for count in 1..<max(words.count, 1) {
                let prefix = words.prefix(count).joined(separator: " ")
                if !prefixes.contains(prefix) { prefixes.append(prefix) }
            }
        }
        for prefix in prefixes {
            let depth = prefix.isEmpty ? 0 : prefix.split(separator: " ").count
            var words: [(word: String, summary: String)] = []
            for command in commands {
                let name = command.name.split(separator: " ").map(String.init)
                guard name.count > depth, name.prefix(depth).joined(separator: " ") == prefix else { continue }
                let word = name[depth]
                guard !words.contains(where: { $0.word == word }) else { continue }
                let summary = name.count == depth + 1 ? command.summary : "\(word) commands"
                words.append((word, summary))
            }
            if prefix.isEmpty {
                words.append(("help", "print a command's help"))
            }
            levels.append(Level(prefix: prefix, words: words))
        }
        self.levels = levels
        deviceWords = SimulatedDeviceCatalog.names.map { "sim:\($0)" }
            + ["hci:tcp:", "hci:unix:", "hci:serial:", "hci:user:", "bluez:hci0", "serial:/dev/ttyACM0", "serial:all",
               "udp:127.0.0.1:1337"]
    }

    /// What the value of an option is, as the scripts name it: `none`, `file`, `profile`,
    /// `device` or `choice`.
    static func kind(_ completion: OptionSpec.ValueCompletion) -> String {
        switch completion {
        case .none: return "none"
        case .file: return "file"
        case .profile: return "profile"
        case .device: return "device"
        case .choice: return "choice"
        }
    }

    /// The scripts' `_dfukit_value` function: for each option that takes a value,
    /// `'COMMAND --opt'|'COMMAND -o')` and what its value is (`kind`, then the choices), `flag`
    /// for any other; `answer` says how the shell returns it (`echo ...` in bash, `REPLY=...`
    /// in zsh).
    func valueFunction(answer: (String) -> String) -> [String] {
        var lines = [
            "# What the value of option $2 of command $1 is: none, file, profile, device or",
            "# 'choice WORD...'; 'flag' when the option takes no value.",
            "_dfukit_value() {",
            "    case \"$1 $2\" in",
        ]
        for command in commands {
            for option in command.options where option.takesValue {
                var kind = Self.kind(option.valueCompletion)
                if case let .choice(choices) = option.valueCompletion { kind += " " + choices.joined(separator: " ") }
                let patterns = option.names.map { ShellQuoting.single("\(command.name) \($0)") }.joined(separator: "|")
                lines.append("        \(patterns)) \(answer(ShellQuoting.single(kind))) ;;")
            }
        }
        return lines + ["        *) \(answer("flag")) ;;", "    esac", "}"]
    }

    /// Every option name of a command, `--help` and `-h` last.
    static func optionNames(_ command: CommandDescription) -> [String] {
        command.options.flatMap(\.names) + ["--help", "-h"]
    }
}
