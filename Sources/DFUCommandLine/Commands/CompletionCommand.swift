/// `dfukit completion bash|zsh|fish`: prints a shell completion script made from the command
/// table, the same definitions `--help` prints.
struct CompletionCommand: Command {
    static let name = "completion"
    static let summary = "Print a shell completion script (bash, zsh or fish) for dfukit."
    static let usage = "dfukit completion bash|zsh|fish"
    static let options: [OptionSpec] = []
    static let shells = ["bash", "zsh", "fish"]
    static let discussion = """
        bash: source <(dfukit completion bash), or save it as /usr/share/bash-completion/completions/dfukit.
        zsh: save it as _dfukit in a directory of $fpath (e.g. /usr/share/zsh/vendor-completions).
        fish: dfukit completion fish | source, or save it as /usr/share/fish/vendor_completions.d/dfukit.fish.
        make install installs all three. Exit: 0, 64 usage.
        """

    let shell: String

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let command = "dfukit \(Self.name)"
        guard arguments.positionals.count == 1 else {
            throw UsageError("name one shell: \(Self.shells.joined(separator: ", "))", command: command)
        }
        shell = arguments.positionals[0]
        guard Self.shells.contains(shell) else {
            throw UsageError("no completion for '\(shell)'; the shells are \(Self.shells.joined(separator: ", "))"
                             + (Suggestion.word(shell, among: Self.shells) ?? ""), command: command)
        }
    }

    func run(_ console: any Console) async -> Int32 {
        let model = CompletionModel(commands: DFUKitCommandLine.commandDescriptions)
        switch shell {
        case "bash": console.out(BashCompletionScript.render(model))
        case "zsh": console.out(ZshCompletionScript.render(model))
        default: console.out(FishCompletionScript.render(model))
        }
        return ExitCode.success
    }
}
