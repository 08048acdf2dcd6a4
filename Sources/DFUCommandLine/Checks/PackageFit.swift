import DFUPackage
import DFUProfile

/// Whether a package is of a kind the profile flashes (`packages:` in the profile), and if not,
/// which profiles on the search path take it: a Nordic package sent by the vendor profile, or
/// an MCUboot image sent over another protocol, would end `verified` on a device that
/// ignored half of it.
enum PackageFit {
    /// Nil when the profile takes the package's kind (or does not say which kinds it takes);
    /// otherwise what to tell the user.
    static func problem(_ package: FirmwarePackage, profile: Profile) -> String? {
        let kind = package.kind
        guard !profile.packageKinds.isEmpty, !profile.packageKinds.contains(kind.name) else { return nil }
        let fitting = profiles(taking: kind.name).filter { $0.name != profile.name }
        let others = fitting.isEmpty ? "no profile on the search path takes \(kind.name) ('dfukit profiles' lists them)"
            : "profiles that take \(kind.name): " + fitting.map { "\($0.name) (\($0.path))" }.joined(separator: ", ")
        return "\(package.path): \(kind.summary), package kind \(kind.name); profile '\(profile.name)' takes only "
            + profile.packageKinds.joined(separator: ", ") + "\n  \(others)"
    }

    /// The first profile of each name on the search path whose `packages:` lists `kind`.
    static func profiles(taking kind: String) -> [(name: String, path: String)] {
        ProfileLibrary.profiles(on: ProfileLibrary.standardSearchPath()).compactMap { found in
            guard found.isFirstOfItsName, let profile = try? ProfileLoader.load(path: found.path),
                  profile.packageKinds.contains(kind) else { return nil }
            return (found.name, found.path)
        }
    }
}
