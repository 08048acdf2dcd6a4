/// One option a command accepts.
public struct OptionSpec: Sendable {
    /// `--profile`; the first name is the canonical one.
    public var names: [String]
    /// The placeholder shown in help (`NAME|FILE`); nil for a flag without a value.
    public var valueName: String?
    public var help: String
    public var repeatable: Bool

    public init(_ names: String..., value valueName: String? = nil, help: String, repeatable: Bool = false) {
        self.names = names
        self.valueName = valueName
        self.help = help
        self.repeatable = repeatable
    }

    var takesValue: Bool { valueName != nil }
    var canonicalName: String { names[0] }
}
