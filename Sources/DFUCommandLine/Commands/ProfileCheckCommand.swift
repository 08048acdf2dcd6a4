import DFUKit

/// `dfukit profile check FILE...`: loads each profile and prints every problem as
/// `FILE:LINE:COL: error: MESSAGE`.
struct ProfileCheckCommand: Command {
    static let name = "profile check"
    static let summary = "Check profile files: exit 0 when all are valid, else print each error and exit 65."
    static let usage = "dfukit profile check FILE..."
    static let options: [OptionSpec] = []
    static let discussion = "A FILE may also be the name of a shipped profile (e.g. vendor-ctrlpt)."

    let files: [String]

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard !arguments.positionals.isEmpty else {
            throw UsageError("name at least one profile file", command: "dfukit \(Self.name)")
        }
        files = arguments.positionals
    }

    func run(_ console: any Console) async -> Int32 {
        let library = ProfileLibrary.standard()
        var failed = false
        for file in files {
            do {
                let profile = try library.load(file)
                console.out("\(profile.path): ok: profile '\(profile.name)', \(profile.commands.count) commands, \(profile.procedure.count) steps")
            } catch {
                failed = true
                console.error(error.description)
            }
        }
        return failed ? ExitCode.dataError : ExitCode.success
    }
}
