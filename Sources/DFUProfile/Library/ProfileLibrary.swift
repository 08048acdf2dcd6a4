import Foundation

/// Finds profiles by name or path, as the command line's `--profile NAME|FILE` does.
///
/// A value that names an existing file is loaded as is. Otherwise `NAME.yaml`, then
/// `NAME.json`, is looked for in each search directory in order:
/// 1. every directory of `$DFUKIT_PROFILE_PATH` (colon separated),
/// 2. `./profiles`,
/// 3. `<directory of the executable>/../share/dfukit/profiles` (an installed copy),
/// 4. the `profiles` directory of the source tree this library was built from.
public struct ProfileLibrary: Sendable {
    /// The environment variable listing extra profile directories.
    package static let pathVariable = "DFUKIT_PROFILE_PATH"
    /// File extensions tried after a bare name, in order.
    package static let extensions = ["yaml", "json"]

    /// Where names are looked up, in order (duplicates removed).
    package var searchDirectories: [String]

    /// A library that looks names up in `searchDirectories`, in order (empty entries and
    /// duplicates dropped).
    public init(searchDirectories: [String]) {
        var seen = Set<String>()
        self.searchDirectories = searchDirectories.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// The standard search path (see the type's documentation).
    public static func standard(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: String = FileManager.default.currentDirectoryPath,
        executablePath: String? = Bundle.main.executablePath
    ) -> ProfileLibrary {
        ProfileLibrary(searchDirectories: standardSearchPath(environment: environment, currentDirectory: currentDirectory,
                                                             executablePath: executablePath).map(\.directory))
    }

    /// `<repository>/profiles`, derived from this file's place in `Sources/DFUProfile/Library`.
    package static var sourceTreeProfilesDirectory: String {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Library
            .deletingLastPathComponent()  // DFUProfile
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()  // repository
            .appendingPathComponent("profiles").path
    }

    /// The file `nameOrPath` designates; the error lists every place searched.
    public func resolve(_ nameOrPath: String) throws(ProfileDiagnostics) -> String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: nameOrPath, isDirectory: &isDirectory), !isDirectory.boolValue {
            return nameOrPath
        }
        for directory in searchDirectories {
            for candidate in candidates(for: nameOrPath, in: directory)
            where FileManager.default.fileExists(atPath: candidate) {
                return candidate
            }
        }
        let available = availableProfiles().map(\.name)
        if nameOrPath.contains("/") || Self.extensions.contains(where: { nameOrPath.hasSuffix("." + $0) }) {
            throw ProfileDiagnostics(ProfileError(
                "no such profile file; check the path, or give a profile name"
                    + (available.isEmpty ? "" : " (available profiles: " + available.joined(separator: ", ") + ")"),
                subject: nameOrPath))
        }
        let searched = searchDirectories.map { "  \($0)" }.joined(separator: "\n")
        let hint = KeySuggestion.didYouMean(nameOrPath, in: available) ?? ""
        throw ProfileDiagnostics(ProfileError(
            "no profile file or name '\(nameOrPath)'\(hint); looked for \(nameOrPath).yaml and \(nameOrPath).json in:\n"
                + searched + (available.isEmpty ? "" : "\navailable profiles: " + available.joined(separator: ", ")),
            subject: nameOrPath))
    }

    /// Resolves `nameOrPath` and loads the profile.
    public func load(_ nameOrPath: String) throws(ProfileDiagnostics) -> Profile {
        try ProfileLoader.load(path: try resolve(nameOrPath))
    }

    /// Every profile file in the search directories (the first of each name wins), by name.
    public func availableProfiles() -> [(name: String, path: String)] {
        var found: [(name: String, path: String)] = []
        var names = Set<String>()
        for directory in searchDirectories {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for file in files.sorted() {
                let url = URL(fileURLWithPath: file)
                guard Self.extensions.contains(url.pathExtension) else { continue }
                let name = url.deletingPathExtension().lastPathComponent
                if names.insert(name).inserted {
                    found.append((name, (directory as NSString).appendingPathComponent(file)))
                }
            }
        }
        return found.sorted { $0.name < $1.name }
    }

    private func candidates(for name: String, in directory: String) -> [String] {
        let base = (directory as NSString).appendingPathComponent(name)
        if Self.extensions.contains(URL(fileURLWithPath: name).pathExtension) {
            return [base]
        }
        return Self.extensions.map { base + "." + $0 }
    }
}
