import DFUKit

/// The values the profiles on the search path declare for a parameter (`values:` in the
/// profile), for completing an option that sets it (`--mode`): the choices live in the
/// profiles, not in the command line.
enum ProfileParameterChoices {
    /// Every value any profile on the search path declares for `parameter`, in the order first met.
    static func values(of parameter: String) -> [String] {
        var values: [String] = []
        for found in ProfileLibrary.profiles(on: ProfileLibrary.standardSearchPath()) where found.isFirstOfItsName {
            guard let profile = try? ProfileLoader.load(path: found.path) else { continue }
            for value in profile.parameterRules[parameter]?.values ?? [] where !values.contains(value.description) {
                values.append(value.description)
            }
        }
        return values
    }
}
