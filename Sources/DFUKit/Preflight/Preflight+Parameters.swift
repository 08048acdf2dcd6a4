extension Preflight {
    /// The parameter values as the engine reads them, every one checked against the profile
    /// (`Profile.checkedParameter`: its name, its type, its values or range). A value given as
    /// text (as on a command line) is read by the parameter's type; `place` says where a value
    /// was written, for the message (`--set prn=abc`, a line file's `FILE:LINE:COL`).
    /// - Throws: `.usage`, naming the parameter and what it takes.
    public static func parameters(_ given: [String: ParameterValue], profile: Profile,
                                  place: (String) -> String? = { _ in nil }) throws(DFUKitError) -> [String: ParameterValue] {
        var checked: [String: ParameterValue] = [:]
        for name in given.keys.sorted() {
            switch profile.checkedParameter(name, given[name]!) {
            case let .success(value): checked[name] = value
            case let .failure(refusal):
                let prefix = place(name).map { "\($0): " } ?? ""
                throw DFUKitError(kind: .usage, message: prefix + refusal.message)
            }
        }
        return checked
    }

    /// For one command sent alone: each parameter given is one the command's request reads, and
    /// a hex parameter it reads that has no default is given.
    static func commandParameters(_ given: [String: ParameterValue], command: CommandSpec, profile: Profile,
                                  place: (String) -> String?) throws(DFUKitError) -> [String: ParameterValue] {
        let used = profile.parameters(usedBy: command)
        for name in given.keys.sorted() where !used.contains(name) && profile.parameters[name] != nil {
            throw DFUKitError(kind: .usage, message: (place(name).map { "\($0): " } ?? "")
                              + "command '\(command.name)' does not use parameter '\(name)'"
                              + (used.isEmpty ? "; it uses none" : "; it uses: \(used.joined(separator: ", "))"))
        }
        let checked = try parameters(given, profile: profile, place: place)
        for name in used where checked[name] == nil {
            if profile.parameterType(of: name) == .hex, profile.parameters[name] == .text("") {
                throw DFUKitError(kind: .usage, message: "command '\(command.name)' needs parameter '\(name)' "
                                  + "(\(ParameterType.hex))", remedy: .setParameter(name))
            }
        }
        return checked
    }
}
