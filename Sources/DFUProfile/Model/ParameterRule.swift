/// What a profile says a parameter takes beyond the type its use gives it (`ParameterType`):
/// the values it may be one of (an enum: MCUmgr's upgrade modes), or a range (SUOTA's block
/// size). Written in the profile as `NAME: { default: D, values: [...] }` or
/// `NAME: { default: D, min: M, max: N }`; a bare `NAME: D` declares no rule.
public struct ParameterRule: Sendable, Equatable {
    /// The values the parameter may take; empty: any value of its type.
    public var values: [ParameterValue]
    /// The smallest integer it takes, when it has a lower bound.
    public var minimum: UInt64?
    /// The largest integer it takes, when it has an upper bound.
    public var maximum: UInt64?
    /// Why the parameter is limited, from the profile (`reason:`), said when a value is refused.
    public var reason: String?

    /// A rule with these limits (none by default).
    public init(values: [ParameterValue] = [], minimum: UInt64? = nil, maximum: UInt64? = nil, reason: String? = nil) {
        self.values = values
        self.minimum = minimum
        self.maximum = maximum
        self.reason = reason
    }

    /// Nil when `value` meets the rule; otherwise what is wrong, in the profile's terms (with the
    /// nearest allowed value for a misspelt choice).
    public func problem(with value: ParameterValue) -> String? {
        if !values.isEmpty, !values.contains(value) {
            let names = values.map(\.description)
            let near = KeySuggestion.nearest(to: value.description, in: names).map { "; did you mean '\($0)'?" } ?? ""
            return "not one of its values (\(names.joined(separator: ", ")))" + near + because
        }
        guard case let .integer(number) = value else { return nil }
        if let minimum, number < minimum {
            return "below its minimum \(minimum)" + range + because
        }
        if let maximum, number > maximum {
            return "above its maximum \(maximum)" + range + because
        }
        return nil
    }

    private var range: String {
        switch (minimum, maximum) {
        case let (low?, high?): " (it takes \(low) to \(high))"
        default: ""
        }
    }

    private var because: String { reason.map { ": \($0)" } ?? "" }
}
