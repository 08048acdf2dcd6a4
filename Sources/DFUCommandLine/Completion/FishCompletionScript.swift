/// `dfukit completion fish`: fish completions for `dfukit`, from `CompletionModel`: one
/// `complete` line per command word and per option, each with its summary.
enum FishCompletionScript {
    static func render(_ model: CompletionModel) -> String {
        let groups = model.levels.map(\.prefix).filter { !$0.isEmpty }
        var lines = [
            "# fish completion for dfukit \(DFUKitCommandLine.version), made by 'dfukit completion fish' from the same",
            "# option definitions as 'dfukit COMMAND --help'. Install: save it as",
            "# /usr/share/fish/vendor_completions.d/dfukit.fish, or run: dfukit completion fish | source",
            "",
            "set -g __dfukit_commands " + model.commands.map { quote($0.name) }.joined(separator: " "),
            "set -g __dfukit_groups " + groups.map(quote).joined(separator: " "),
            "",
            "# What the words typed so far name: 'group:PREFIX' (still naming a command; '' is the top",
            "# level), 'help:PREFIX' (the same after 'dfukit help'), 'command:NAME', or 'none'.",
            "function __dfukit_state",
            "    set -l tokens (commandline -opc)",
            "    set -e tokens[1]",
            "    set -l mode group",
            "    if test (count $tokens) -gt 0; and test \"$tokens[1]\" = help",
            "        set mode help",
            "        set -e tokens[1]",
            "    end",
            "    set -l prefix ''",
            "    for token in $tokens",
            "        set -l candidate (string trim -- \"$prefix $token\")",
            "        if contains -- $candidate $__dfukit_commands",
            "            if test $mode = help; echo none; else; echo command:$candidate; end",
            "            return",
            "        end",
            "        if not contains -- $candidate $__dfukit_groups",
            "            echo none",
            "            return",
            "        end",
            "        set prefix $candidate",
            "    end",
            "    echo $mode:$prefix",
            "end",
            "",
            "function __dfukit_is",
            "    test (__dfukit_state) = $argv[1]",
            "end",
            "",
            "function __dfukit_profiles",
            "    set -l program (commandline -opc)[1]",
            "    $program profiles --names 2>/dev/null",
            "end",
            "",
            "complete -c dfukit -f",
            "complete -c dfukit -n '__dfukit_is group:' -l help -s h -d 'print the commands'",
            "complete -c dfukit -n '__dfukit_is group:' -l version -s V -d 'print the version'",
        ]
        for level in model.levels {
            for (word, summary) in level.words {
                lines.append("complete -c dfukit -n \(quote("__dfukit_is " + quote("group:" + level.prefix))) -a \(quote(word)) -d \(quote(summary))")
                if word != "help" {
                    lines.append("complete -c dfukit -n \(quote("__dfukit_is " + quote("help:" + level.prefix))) -a \(quote(word)) -d \(quote(summary))")
                }
            }
        }
        for command in model.commands {
            let condition = "-n " + quote("__dfukit_is " + quote("command:" + command.name))
            lines.append("complete -c dfukit \(condition) -F")
            for option in command.options {
                var line = "complete -c dfukit \(condition)"
                for name in option.names {
                    line += name.hasPrefix("--") ? " -l \(quote(String(name.dropFirst(2))))" : " -s \(quote(String(name.dropFirst())))"
                }
                switch option.valueCompletion {
                case .none where option.takesValue: line += " -x"
                case .none: break
                case .file: line += " -r -F"
                case .profile: line += " -r -F -a '(__dfukit_profiles)'"
                case .device: line += " -x -a " + quote(model.deviceWords.joined(separator: " "))
                case let .choice(choices): line += " -x -a " + quote(choices.joined(separator: " "))
                }
                line += " -d " + quote((option.valueName.map { "\($0): " } ?? "") + option.help)
                lines.append(line)
            }
            lines.append("complete -c dfukit \(condition) -l help -s h -d 'show this help'")
        }
        return lines.joined(separator: "\n")
    }

    /// fish's single quotes: backslash and quote escaped.
    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
