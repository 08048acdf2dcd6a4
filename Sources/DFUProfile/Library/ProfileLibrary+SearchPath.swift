import Foundation

extension ProfileLibrary {
    /// Why a directory is on the standard search path.
    public enum Origin: String, Sendable {
        /// A directory of `$DFUKIT_PROFILE_PATH`.
        case environment = "DFUKIT_PROFILE_PATH"
        /// `./profiles` of the current directory.
        case workingDirectory = "./profiles"
        /// `<executable>/../share/dfukit/profiles`: what `make install` installed.
        case installed
        /// The `profiles` directory of the source tree DFUKit was built from.
        case sourceTree = "source tree"
    }

    /// One directory of the search path and why it is there.
    public struct SearchDirectory: Sendable, Equatable {
        /// The directory's path.
        public var directory: String
        /// Why it is on the search path.
        public var origin: Origin
    }

    /// One profile file found on the search path.
    public struct FoundProfile: Sendable, Equatable {
        /// The profile's name: its file name without `.yaml` or `.json`.
        public var name: String
        /// The file's path.
        public var path: String
        /// The search directory it was found in.
        public var directory: SearchDirectory
        /// False when a directory earlier on the path holds a profile of the same name (the one
        /// `--profile NAME` loads).
        public var isFirstOfItsName: Bool
    }

    /// The standard search path in order, each directory with its origin (see the type's
    /// documentation); a directory that comes twice is kept where it comes first.
    public static func standardSearchPath(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: String = FileManager.default.currentDirectoryPath,
        executablePath: String? = Bundle.main.executablePath
    ) -> [SearchDirectory] {
        var path: [SearchDirectory] = []
        if let variable = environment[pathVariable] {
            path += variable.split(separator: ":").map { SearchDirectory(directory: String($0), origin: .environment) }
        }
        path.append(SearchDirectory(directory: (currentDirectory as NSString).appendingPathComponent("profiles"),
                                    origin: .workingDirectory))
        if let executablePath {
            let binary = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath().deletingLastPathComponent()
            path.append(SearchDirectory(
                directory: binary.appendingPathComponent("../share/dfukit/profiles").standardizedFileURL.path,
                origin: .installed))
        }
        path.append(SearchDirectory(directory: sourceTreeProfilesDirectory, origin: .sourceTree))
        var seen = Set<String>()
        return path.filter { !$0.directory.isEmpty && seen.insert($0.directory).inserted }
    }

    /// Every profile file in `searchPath`, in search order (by name within a directory),
    /// including those a profile of the same name earlier on the path hides.
    public static func profiles(on searchPath: [SearchDirectory]) -> [FoundProfile] {
        var names = Set<String>()
        var found: [FoundProfile] = []
        for entry in searchPath {
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: entry.directory)) ?? [])
                .map { URL(fileURLWithPath: $0) }.filter { extensions.contains($0.pathExtension) }
            // As `resolve` looks them up: by name, then NAME.yaml before NAME.json.
            let ordered = files.sorted {
                ($0.deletingPathExtension().lastPathComponent, extensions.firstIndex(of: $0.pathExtension) ?? 0)
                    < ($1.deletingPathExtension().lastPathComponent, extensions.firstIndex(of: $1.pathExtension) ?? 0)
            }
            for url in ordered {
                let file = url.lastPathComponent
                let name = url.deletingPathExtension().lastPathComponent
                found.append(FoundProfile(name: name, path: (entry.directory as NSString).appendingPathComponent(file),
                                          directory: entry, isFirstOfItsName: names.insert(name).inserted))
            }
        }
        return found
    }
}
