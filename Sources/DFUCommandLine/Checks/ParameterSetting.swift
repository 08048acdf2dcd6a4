import DFUKit

/// A value given for a profile parameter on the command line (`--set prn=12`, or the HASH of
/// `smp image test`), kept as written until the profile is loaded and can say what the
/// parameter takes.
struct ParameterSetting: Sendable, Equatable {
    var name: String
    var text: String
    /// How the user wrote it, for messages: `--set prn=abc`, or `HASH 'zz'`.
    var source: String

    /// `NAME=VALUE` settings of `option`, split (only the syntax is checked here).
    static func parse(_ settings: [String], option: String = "--set", command: String) throws(UsageError) -> [ParameterSetting] {
        var parsed: [ParameterSetting] = []
        for setting in settings {
            let parts = setting.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw UsageError("\(option) takes NAME=VALUE, not '\(setting)'", command: command)
            }
            parsed.append(ParameterSetting(name: parts[0], text: parts[1], source: "\(option) \(setting)"))
        }
        return parsed
    }

    /// The settings as the library takes them: each value as written (`.text`), read by the
    /// parameter's type when the profile is checked; a name given twice keeps the last value.
    static func values(_ settings: [ParameterSetting]) -> [String: ParameterValue] {
        var values: [String: ParameterValue] = [:]
        for setting in settings { values[setting.name] = .text(setting.text) }
        return values
    }

    /// Where each setting was written, for the library's messages (`--set prn=abc`, `HASH 'zz'`).
    static func places(_ settings: [ParameterSetting]) -> [String: String] {
        var places: [String: String] = [:]
        for setting in settings { places[setting.name] = setting.source }
        return places
    }
}
