import DFUKit

/// `dfukit profile check FILE...`: loads each profile and prints every problem as
/// `FILE:LINE:COL: error: MESSAGE`, and what makes a valid profile unsafe to use on its own as
/// `FILE: warning: MESSAGE` (exit 0: the profile still works with an explicit address).
struct ProfileCheckCommand: Command {
    static let name = "profile check"
    static let summary = "Check profile files: exit 0 when all are valid, else print each error and exit 65."
    static let usage = "dfukit profile check FILE..."
    static let options: [OptionSpec] = []
    static let discussion = """
        A FILE may also be the name of a shipped profile (e.g. vendor-ctrlpt).
        A profile without a match rule is valid, with a warning: it cannot pick its device from a scan.
        """

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
                for warning in Self.warnings(profile) { console.error("\(profile.path): warning: \(warning)") }
            } catch {
                failed = true
                console.error(error.description)
            }
        }
        return failed ? ExitCode.dataError : ExitCode.success
    }

    /// What a valid profile cannot do safely.
    static func warnings(_ profile: Profile) -> [String] {
        guard profile.match.isEmpty else { return [] }
        let wires = profile.links.keys.map(\.rawValue).sorted()
        // A serial port or a UDP address names its device: only Bluetooth needs a match rule.
        let where_ = wires.isEmpty ? "" : " over Bluetooth (over \(wires.joined(separator: " and ")) the port or address names the device)"
        return ["profile '\(profile.name)' has no 'match' rule (name, services or manufacturer), so it cannot tell its "
                + "devices apart from any other advertiser\(where_): flash and batch run without a device address refuse it, "
                + "and scan lists no device as matching it; add a 'match' rule, or always give the device's address"]
    }
}
