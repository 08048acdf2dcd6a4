/// A JSON document as a tree, with object members kept in order.
///
/// Used to read package manifests (JSONDecoder keeps `true`, `1` and `"1"` apart, so a wrong type
/// can be reported with its key) and to write manifests, inspections and batch reports with a
/// fixed key order.
public enum JSONValue: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number without a fraction or exponent that fits 64 bits.
    case integer(Int64)
    /// A whole number above `Int64.max` (a 64-bit field a device answered), written exactly.
    case unsigned(UInt64)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object, its members in written order.
    case object([(key: String, value: JSONValue)])

    /// The member called `key` of an object, if any.
    public subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// A short name of the value's type, for error messages.
    package var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer, .unsigned, .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
