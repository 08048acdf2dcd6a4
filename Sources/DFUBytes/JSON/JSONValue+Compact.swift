extension JSONValue {
    /// JSON on one line with no space between tokens, members in their stored order: what a
    /// command's `--json` prints, one object per line.
    public var compactText: String {
        var output = ""
        writeCompact(to: &output)
        return output
    }

    private func writeCompact(to output: inout String) {
        switch self {
        case .null: output += "null"
        case let .bool(value): output += value ? "true" : "false"
        case let .integer(value): output += String(value)
        case let .unsigned(value): output += String(value)
        case let .number(value): output += Self.numberText(value)
        case let .string(value): output += Self.quoted(value)
        case let .array(elements):
            output += "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output += "," }
                element.writeCompact(to: &output)
            }
            output += "]"
        case let .object(members):
            output += "{"
            for (offset, member) in members.enumerated() {
                if offset > 0 { output += "," }
                output += Self.quoted(member.key) + ":"
                member.value.writeCompact(to: &output)
            }
            output += "}"
        }
    }

    /// A number as JSON: a whole number without a fraction (`15`, not `15.0`), others in
    /// Swift's shortest exact form (`7.5`, `0.1`); not a number or infinite: `null`.
    static func numberText(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// The same object with the members of every object sorted by key, recursively (the order
    /// `--json` outputs have always used).
    public var sortingKeys: JSONValue {
        switch self {
        case let .array(elements): return .array(elements.map(\.sortingKeys))
        case let .object(members):
            return .object(members.sorted { $0.key < $1.key }.map { ($0.key, $0.value.sortingKeys) })
        default: return self
        }
    }
}
