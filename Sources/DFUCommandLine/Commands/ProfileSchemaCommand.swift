import DFUKit

/// `dfukit profile schema`: prints the profile language as a JSON Schema (draft 2020-12) for
/// editors, generated from the loader's own definitions.
struct ProfileSchemaCommand: Command {
    static let name = "profile schema"
    static let summary = "Print the profile language as a JSON Schema (draft 2020-12) for editors."
    static let usage = "dfukit profile schema"
    static let options: [OptionSpec] = []
    static let discussion = """
        The schema is generated from the profile loader's own definitions (keys, required keys,
        choices), so it describes exactly the language this dfukit reads. Save it and name it at
        the top of a profile for the YAML language server (VS Code's YAML extension, Neovim, Helix):
          dfukit profile schema > profile.schema.json
          # yaml-language-server: $schema=profile.schema.json
        It checks the shape of a profile as it is typed; 'dfukit profile check' still finds the rest
        (names that refer to nothing, expression errors).
        """

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else {
            throw UsageError("'\(arguments.positionals[0])': profile schema takes no arguments",
                             command: "dfukit \(Self.name)")
        }
    }

    func run(_ console: any Console) async -> Int32 {
        var text = ProfileJSONSchema.generate().prettyText
        if text.hasSuffix("\n") { text.removeLast() }
        console.out(text)
        return ExitCode.success
    }
}
