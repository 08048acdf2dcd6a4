import DFUKit
import Foundation

/// `dfukit profiles [--json]`: the profiles on the search path, with their descriptions and
/// where each was found.
struct ProfilesCommand: Command {
    static let name = "profiles"
    static let summary = "List the profiles on the search path, with their descriptions and where each was found."
    static let usage = "dfukit profiles [--json | --names]"
    static let options: [OptionSpec] = [
        OptionSpec("--json", help: "print a JSON list"),
        OptionSpec("--names", help: "print only the names --profile NAME loads, one a line (shell completion uses it)"),
    ]
    static let discussion = """
        The search path, in order: each directory of $DFUKIT_PROFILE_PATH (colon separated),
        ./profiles, <dfukit's directory>/../share/dfukit/profiles (make install), and the profiles
        directory of the source tree dfukit was built from. --profile NAME loads the first NAME.yaml
        (then NAME.json) found; a profile hidden by an earlier one of the same name is listed as
        hidden. A profile that does not load is listed with its first error; 'dfukit profile check
        FILE' shows them all. Each valid profile's line ends with the package kinds it flashes
        ('packages' in the profile). --json prints one object per profile: name, description, path,
        directory, origin, hidden, valid, packages, error.
        Exit: 0 listed (even with invalid profiles), 64 usage.
        """

    let json: Bool
    let namesOnly: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else {
            throw UsageError("'\(arguments.positionals[0])': profiles takes no arguments (did you mean "
                             + "'dfukit profile check \(arguments.positionals[0])'?)", command: "dfukit \(Self.name)")
        }
        json = arguments.flag("--json")
        namesOnly = arguments.flag("--names")
        guard !(json && namesOnly) else {
            throw UsageError("give --json or --names, not both", command: "dfukit \(Self.name)")
        }
    }

    private struct Listed {
        var found: ProfileLibrary.FoundProfile
        var description: String?
        var packageKinds: [String] = []
        var error: String?
    }

    func run(_ console: any Console) async -> Int32 {
        let searchPath = ProfileLibrary.standardSearchPath()
        if namesOnly {
            for found in ProfileLibrary.profiles(on: searchPath) where found.isFirstOfItsName {
                console.out(found.name)
            }
            return ExitCode.success
        }
        let listed = ProfileLibrary.profiles(on: searchPath).map { found -> Listed in
            do throws(ProfileDiagnostics) {
                let profile = try ProfileLoader.load(path: found.path)
                return Listed(found: found, description: profile.summary, packageKinds: profile.packageKinds)
            } catch {
                let first = error.errors.first.map { "\($0)" } ?? error.description
                return Listed(found: found, description: nil, error: first)
            }
        }
        if json {
            console.out(Self.render(listed.map(Self.object)))
            return ExitCode.success
        }
        console.out("search path (the first profile of each name is the one --profile NAME loads):")
        for (index, entry) in searchPath.enumerated() {
            let count = listed.filter { $0.found.directory == entry }.count
            console.out("  \(index + 1). \(entry.directory) (\(entry.origin.rawValue)): "
                        + (count == 0 ? "no profiles" : "\(count) profile" + (count == 1 ? "" : "s")))
        }
        let column = (listed.map { $0.found.name.count }.max() ?? 0) + 2
        for entry in listed {
            console.out("")
            var summary = entry.description ?? "(no description)"
            if let error = entry.error { summary = "invalid: " + error }
            if !entry.packageKinds.isEmpty { summary += " [packages: \(entry.packageKinds.joined(separator: ", "))]" }
            if !entry.found.isFirstOfItsName { summary = "hidden by an earlier " + entry.found.name + "; " + summary }
            console.out(entry.found.name.padding(toLength: column, withPad: " ", startingAt: 0) + summary)
            console.out(String(repeating: " ", count: column) + entry.found.path
                        + " (\(entry.found.directory.origin.rawValue))")
        }
        if listed.isEmpty { console.out("\nno profiles found") }
        return ExitCode.success
    }

    private static func object(_ entry: Listed) -> [String: Any] {
        var object: [String: Any] = [
            "name": entry.found.name, "path": entry.found.path, "directory": entry.found.directory.directory,
            "origin": entry.found.directory.origin.rawValue, "hidden": !entry.found.isFirstOfItsName,
            "valid": entry.error == nil,
        ]
        if let description = entry.description { object["description"] = description }
        if entry.error == nil { object["packages"] = entry.packageKinds }
        if let error = entry.error { object["error"] = error }
        return object
    }

    private static func render(_ rows: [[String: Any]]) -> String {
        JSONOutput.line(rows)
    }
}
