/// `dfukit completion zsh`: a zsh completion function (`_dfukit`) for `dfukit`, from
/// `CompletionModel`, with each command's and option's summary shown beside it.
enum ZshCompletionScript {
    static func render(_ model: CompletionModel) -> String {
        var lines = [
            "#compdef dfukit",
            "# zsh completion for dfukit \(DFUKitCommandLine.version), made by 'dfukit completion zsh' from the same",
            "# option definitions as 'dfukit COMMAND --help'. Install: save it as _dfukit in a directory of",
            "# $fpath (e.g. /usr/share/zsh/vendor-completions), or run: source <(dfukit completion zsh)",
            "",
            "# The words that may follow a group of commands (\"\" is the top level), as WORD:SUMMARY.",
            "_dfukit_words() {",
            "    case \"$1\" in",
        ]
        for level in model.levels {
            var entries = level.words.map { "\($0.word):\($0.summary)" }
            if level.prefix.isEmpty { entries += ["--help:print the commands", "--version:print the version"] }
            lines.append("        \(ShellQuoting.single(level.prefix))) reply=(\(entries.map { ShellQuoting.single(escapeColons(in: $0)) }.joined(separator: " "))) ;;")
        }
        lines += [
            "        *) reply=() ;;",
            "    esac",
            "}",
            "",
            "_dfukit_is_command() {",
            "    case \"$1\" in",
            "        " + model.commands.map { ShellQuoting.single($0.name) }.joined(separator: "|") + ") return 0 ;;",
            "    esac",
            "    return 1",
            "}",
            "",
            "# A command's options, as NAME:HELP.",
            "_dfukit_options() {",
            "    case \"$1\" in",
        ]
        for command in model.commands {
            var entries: [String] = []
            for option in command.options {
                for name in option.names {
                    entries.append("\(name):" + (option.valueName.map { "\($0): " } ?? "") + option.help)
                }
            }
            entries += ["--help:show this help", "-h:show this help"]
            lines.append("        \(ShellQuoting.single(command.name))) reply=(\(entries.map { ShellQuoting.single(escapeColons(in: $0)) }.joined(separator: " "))) ;;")
        }
        lines += [
            "    esac",
            "}",
            "",
        ]
        lines += model.valueFunction { "REPLY=\($0)" }
        lines += [
            "",
            "_dfukit() {",
            "    local prefix=\"\" command=\"\" candidate helping=0",
            "    local -i i=2",
            "    local -a reply",
            "    local REPLY",
            "    if [[ \"${words[2]}\" == help && $CURRENT -gt 2 ]]; then helping=1; i=3; fi",
            "    for (( ; i < CURRENT; i++ )); do",
            "        candidate=\"${prefix:+$prefix }${words[i]}\"",
            "        if _dfukit_is_command \"$candidate\"; then command=$candidate; break; fi",
            "        _dfukit_words \"$candidate\"",
            "        (( ${#reply} )) || break",
            "        prefix=$candidate",
            "    done",
            "    if [[ -z \"$command\" ]]; then",
            "        if (( i == CURRENT )); then",
            "            _dfukit_words \"$prefix\"",
            "            (( helping )) && reply=(${reply:#(--*|help:*)})",
            "            _describe -t commands 'dfukit command' reply",
            "        fi",
            "        return",
            "    fi",
            "    (( helping )) && return",
            "    local option=\"${words[CURRENT-1]}\"",
            "    if (( CURRENT - 1 <= i )); then REPLY=flag; else _dfukit_value \"$command\" \"$option\"; fi",
            "    case \"$REPLY\" in",
            "        flag)",
            "            if [[ \"${words[CURRENT]}\" == -* ]]; then",
            "                _dfukit_options \"$command\"",
            "                _describe -t options 'option' reply",
            "            else",
            "                _files",
            "            fi ;;",
            "        none) ;;",
            "        file) _files ;;",
            "        profile)",
            "            local -a profiles",
            "            profiles=(${(f)\"$(${words[1]} profiles --names 2>/dev/null)\"})",
            "            compadd -- $profiles",
            "            _files ;;",
            "        device) compadd -S '' -- \(model.deviceWords.map(ShellQuoting.single).joined(separator: " ")) ;;",
            "        choice\\ *) compadd -- ${=REPLY#choice } ;;",
            "    esac",
            "}",
            "",
            "# Loaded from $fpath by compinit, the file is the function's body; sourced, it defines it.",
            "if [[ \"${zsh_eval_context[-1]}\" == loadautofunc ]]; then",
            "    _dfukit \"$@\"",
            "else",
            "    compdef _dfukit dfukit",
            "fi",
        ]
        return lines.joined(separator: "\n")
    }

    /// `_describe` splits NAME:HELP at the first unescaped colon.
    private static func escapeColons(in entry: String) -> String {
        guard let colon = entry.firstIndex(of: ":") else { return entry }
        return String(entry[..<colon]) + ":" + entry[entry.index(after: colon)...].replacingOccurrences(of: ":", with: "\\:")
    }
}
