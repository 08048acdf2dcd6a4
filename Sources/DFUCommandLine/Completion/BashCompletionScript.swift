/// `dfukit completion bash`: a bash completion function for `dfukit`, from `CompletionModel`.
///
/// It finds the command from the words typed (`dfukit smp image ` completes `list test ...`),
/// completes option names after `-`, and an option's value after it (profile names from
/// `dfukit profiles --names`, simulated devices, the option's choices, or paths).
enum BashCompletionScript {
    static func render(_ model: CompletionModel) -> String {
        var lines = [
            "# bash completion for dfukit \(DFUKitCommandLine.version), made by 'dfukit completion bash' from the same",
            "# option definitions as 'dfukit COMMAND --help'. Install: save it as",
            "# /usr/share/bash-completion/completions/dfukit, or run: source <(dfukit completion bash)",
            "",
            "# The words that may follow a group of commands (\"\" is the top level).",
            "_dfukit_words() {",
            "    case \"$1\" in",
        ]
        for level in model.levels {
            var words = level.words.map(\.word)
            if level.prefix.isEmpty { words += ["--help", "--version"] }
            lines.append("        \(ShellQuoting.single(level.prefix))) echo \(ShellQuoting.single(words.joined(separator: " "))) ;;")
        }
        lines += [
            "    esac",
            "}",
            "",
            "# Whether the words name a command.",
            "_dfukit_is_command() {",
            "    case \"$1\" in",
            "        " + model.commands.map { ShellQuoting.single($0.name) }.joined(separator: "|") + ") return 0 ;;",
            "    esac",
            "    return 1",
            "}",
            "",
            "# A command's options.",
            "_dfukit_options() {",
            "    case \"$1\" in",
        ]
        for command in model.commands {
            lines.append("        \(ShellQuoting.single(command.name))) echo \(ShellQuoting.single(CompletionModel.optionNames(command).joined(separator: " "))) ;;")
        }
        lines += [
            "    esac",
            "}",
            "",
        ]
        lines += model.valueFunction { "echo \($0)" }
        lines += [
            "",
            "# bash splits words at ':' and '=' (COMP_WORDBREAKS): offer only what follows the last one.",
            "_dfukit_trim() {",
            "    local cur=$1 head=\"\" mark part",
            "    for mark in : =; do",
            "        if [[ \"$COMP_WORDBREAKS\" == *\"$mark\"* && \"$cur\" == *\"$mark\"* ]]; then",
            "            part=${cur%\"${cur##*\"$mark\"}\"}",
            "            (( ${#part} > ${#head} )) && head=$part",
            "        fi",
            "    done",
            "    [[ -n \"$head\" ]] && COMPREPLY=(\"${COMPREPLY[@]#\"$head\"}\")",
            "    return 0",
            "}",
            "",
            "_dfukit() {",
            "    local line=\"${COMP_LINE:0:COMP_POINT}\"",
            "    local -a words",
            "    read -r -a words <<< \"$line\"",
            "    if [[ ${#words[@]} -eq 0 || \"$line\" == *[[:space:]] ]]; then words+=(\"\"); fi",
            "    local last=$(( ${#words[@]} - 1 ))",
            "    local cur=\"${words[last]}\" program=\"${words[0]}\"",
            "    local prefix=\"\" command=\"\" i=1 helping=0 candidate",
            "    if [[ \"${words[1]}\" == help && $last -gt 1 ]]; then helping=1; i=2; fi",
            "    for (( ; i < last; i++ )); do",
            "        candidate=\"${prefix:+$prefix }${words[i]}\"",
            "        if _dfukit_is_command \"$candidate\"; then command=$candidate; break; fi",
            "        [[ -n \"$(_dfukit_words \"$candidate\")\" ]] || break",
            "        prefix=$candidate",
            "    done",
            "    COMPREPLY=()",
            "    if [[ -z \"$command\" ]]; then",
            "        # Still naming the command: the next word of the group typed so far.",
            "        if (( i == last )); then",
            "            local next; next=$(_dfukit_words \"$prefix\")",
            "            (( helping )) && next=${next//--help/} && next=${next//--version/} && next=${next//help/}",
            "            COMPREPLY=($(compgen -W \"$next\" -- \"$cur\"))",
            "        fi",
            "        return 0",
            "    fi",
            "    (( helping )) && return 0",
            "    local option=\"${words[last-1]}\" value=\"$cur\" shown=\"\"",
            "    if [[ \"$cur\" == --*=* ]]; then option=${cur%%=*}; value=${cur#*=}; shown=\"$option=\"; fi",
            "    local kind; kind=$(_dfukit_value \"$command\" \"$option\")",
            "    if (( last - 1 <= i )) && [[ -z \"$shown\" ]]; then kind=flag; fi",
            "    case \"$kind\" in",
            "        flag)",
            "            if [[ \"$cur\" == -* ]]; then",
            "                COMPREPLY=($(compgen -W \"$(_dfukit_options \"$command\")\" -- \"$cur\"))",
            "            else",
            "                compopt -o filenames 2>/dev/null",
            "                COMPREPLY=($(compgen -f -- \"$cur\"))",
            "            fi ;;",
            "        none) ;;",
            "        file)",
            "            compopt -o filenames 2>/dev/null",
            "            COMPREPLY=($(compgen -f -- \"$value\")) ;;",
            "        profile)",
            "            COMPREPLY=($(compgen -W \"$(\"$program\" profiles --names 2>/dev/null)\" -- \"$value\") $(compgen -f -- \"$value\")) ;;",
            "        device)",
            "            COMPREPLY=($(compgen -W \(ShellQuoting.single(model.deviceWords.joined(separator: " "))) -- \"$value\"))",
            "            compopt -o nospace 2>/dev/null ;;",
            "        choice\\ *)",
            "            COMPREPLY=($(compgen -W \"${kind#choice }\" -- \"$value\")) ;;",
            "    esac",
            "    if [[ -n \"$shown\" ]]; then COMPREPLY=(\"${COMPREPLY[@]/#/$shown}\"); fi",
            "    _dfukit_trim \"$cur\"",
            "}",
            "",
            "complete -F _dfukit dfukit",
        ]
        return lines.joined(separator: "\n")
    }
}

/// Quoting for the generated scripts.
enum ShellQuoting {
    /// `'text'` for sh, bash and zsh: a single quote inside becomes `'\''`.
    static func single(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
