import DFUProfile

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
}

/// The parameter values for the engine, each checked against the profile before anything is
/// sent: the name must be one of the profile's parameters (and, for one command sent alone,
/// one its request reads), and the value must fit the type the profile's use gives it.
enum ParameterCheck {
    static func values(_ settings: [ParameterSetting], profile: Profile, command: String,
                       sending profileCommand: CommandSpec? = nil) throws(UsageError) -> [String: ParameterValue] {
        var values: [String: ParameterValue] = [:]
        let declared = profile.parameters.keys.sorted()
        for setting in settings {
            guard let type = profile.parameterType(of: setting.name) else {
                let list = declared.isEmpty ? "; it has no parameters"
                    : KeySuggestion.didYouMean(setting.name, in: declared) ?? "; its parameters: \(declared.joined(separator: ", "))"
                throw UsageError("\(setting.source): profile '\(profile.name)' has no parameter '\(setting.name)'" + list,
                                 command: command)
            }
            if let profileCommand {
                let used = profile.parameters(usedBy: profileCommand)
                guard used.contains(setting.name) else {
                    throw UsageError("\(setting.source): command '\(profileCommand.name)' does not use parameter '\(setting.name)'"
                                     + (used.isEmpty ? "; it uses none" : "; it uses: \(used.joined(separator: ", "))"),
                                     command: command)
                }
            }
            switch type.value(of: setting.text) {
            case let .success(value): values[setting.name] = value
            case .failure:
                throw UsageError("\(setting.source): parameter '\(setting.name)' is \(type), not '\(setting.text)'", command: command)
            }
        }
        // A command sent alone needs the bytes it reads from a hex parameter that has none by default.
        if let profileCommand {
            for name in profile.parameters(usedBy: profileCommand) where values[name] == nil {
                if profile.parameterType(of: name) == .hex, profile.parameters[name] == .text("") {
                    throw UsageError("command '\(profileCommand.name)' needs --set \(name)=HEX (parameter '\(name)' is "
                                     + "\(ParameterType.hex))", command: command)
                }
            }
        }
        return values
    }
}
