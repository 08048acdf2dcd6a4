/// The value of a profile parameter: an integer or a text.
public enum ParameterValue: Sendable, Equatable, CustomStringConvertible {
    /// An unsigned integer.
    case integer(UInt64)
    /// Anything that is not an integer.
    case text(String)

    /// Parses a command-line value: decimal or 0x hex integers, anything else is text.
    public init(parsing text: String) {
        if text.hasPrefix("0x") || text.hasPrefix("0X"), let value = UInt64(text.dropFirst(2), radix: 16) {
            self = .integer(value)
        } else if let value = UInt64(text) {
            self = .integer(value)
        } else {
            self = .text(text)
        }
    }

    public var description: String {
        switch self {
        case let .integer(value): return "\(value)"
        case let .text(value): return value
        }
    }
}
