/// One option a command accepts. `--help`, the completion scripts and the man page are all made
/// from these, so what a command accepts is written once.
public struct OptionSpec: Sendable {
    /// `--profile`; the first name is the canonical one.
    public var names: [String]
    /// The placeholder shown in help (`NAME|FILE`); nil for a flag without a value.
    public var valueName: String?
    public var help: String
    public var repeatable: Bool
    /// The only values accepted, when the option has a fixed set (`--mode`); empty otherwise.
    /// `value(of:)` checks them, completion offers them.
    public var choices: [String]

    public init(_ names: String..., value valueName: String? = nil, help: String, repeatable: Bool = false,
                choices: [String] = []) {
        self.names = names
        self.valueName = valueName
        self.help = help
        self.repeatable = repeatable
        self.choices = choices
    }

    var takesValue: Bool { valueName != nil }
    var canonicalName: String { names[0] }

    /// What a shell offers for the option's value.
    public enum ValueCompletion: Sendable, Equatable {
        /// Nothing to offer (a number, a name only the user knows).
        case none
        /// A path.
        case file
        /// A profile name from the search path, or a path.
        case profile
        /// `sim:NAME`, `hci:`, `bluez:`.
        case device
        /// One of `choices`.
        case choice([String])
    }

    /// Read from the placeholder: `NAME|FILE` or `--profile` is a profile, `DEVICE` and
    /// `TRANSPORT` a device, a placeholder naming a file (`FILE`, `PKG`, `PUB.pem`, `OUT.zip`) a
    /// path.
    public var valueCompletion: ValueCompletion {
        guard let valueName else { return .none }
        if !choices.isEmpty { return .choice(choices) }
        if canonicalName == "--profile" { return .profile }
        // `--mode M` is `--set mode=M`: the profiles say which modes there are.
        if canonicalName == "--mode" { return .choice(ProfileParameterChoices.values(of: "mode")) }
        if valueName == "DEVICE" || valueName == "TRANSPORT" { return .device }
        let fileWords = ["FILE", "PKG", "PATH", ".pem", ".zip", ".yaml"]
        if fileWords.contains(where: { valueName.contains($0) }) { return .file }
        return .none
    }
}
