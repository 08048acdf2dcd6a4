/// `dfukit man`: prints the manual page in roff (`dfukit man | man -l -`).
struct ManCommand: Command {
    static let name = "man"
    static let summary = "Print the manual page, dfukit(1), in roff."
    static let usage = "dfukit man"
    static let options: [OptionSpec] = []
    static let discussion = """
        Read it with: dfukit man | man -l -. make install installs it as share/man/man1/dfukit.1.
        It is made from the same definitions as every command's --help. Exit: 0, 64 usage.
        """

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else {
            throw UsageError("takes no arguments (the page covers every command)", command: "dfukit \(Self.name)")
        }
    }

    func run(_ console: any Console) async -> Int32 {
        console.out(ManPage.render(DFUKitCommandLine.commandDescriptions))
        return ExitCode.success
    }
}
