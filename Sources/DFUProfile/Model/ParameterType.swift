/// What values a profile parameter takes, as the profile uses it: read by
/// `Profile.parameterType(of:)` from where `param.NAME` goes (an integer field of some width,
/// `unhex(...)`) and from its default. The command line checks `--set NAME=VALUE` and command
/// arguments against it before anything is sent, and says what is wrong in these terms.
public enum ParameterType: Sendable, Equatable, CustomStringConvertible {
    /// An unsigned integer that fits `bits` bits (8, 16, 24, 32 or 64).
    case unsigned(bits: Int)
    /// Bytes written in hex (`unhex(param.hash)`): an even number of digits 0-9, a-f.
    case hex
    /// Any text.
    case text

    public var description: String {
        switch self {
        case let .unsigned(bits) where bits >= 64: return "an unsigned integer"
        case let .unsigned(bits): return "an unsigned \(bits)-bit integer (0 to \(Self.maximum(bits: bits)))"
        case .hex: return "bytes written in hex (an even number of digits 0-9, a-f)"
        case .text: return "a text"
        }
    }

    /// The value `text` gives a parameter of this type, or why it cannot.
    public func value(of text: String) -> Result<ParameterValue, ParameterTypeMismatch> {
        switch self {
        case let .unsigned(bits):
            guard case let .integer(number) = ParameterValue(parsing: text), number <= Self.maximum(bits: bits) else {
                return .failure(ParameterTypeMismatch(type: self, text: text))
            }
            return .success(.integer(number))
        case .hex:
            let digits = Array(text.utf8)
            guard digits.count.isMultiple(of: 2), digits.allSatisfy({ Self.isHexDigit($0) }) else {
                return .failure(ParameterTypeMismatch(type: self, text: text))
            }
            return .success(.text(text))
        case .text:
            return .success(.text(text))
        }
    }

    static func maximum(bits: Int) -> UInt64 {
        bits >= 64 ? UInt64.max : (UInt64(1) << UInt64(bits)) - 1
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte | 0x20)
    }
}

/// A value that does not fit a parameter's type.
public struct ParameterTypeMismatch: Error, Sendable, Equatable {
    /// The type the parameter has.
    public var type: ParameterType
    /// The value given, as written.
    public var text: String
}
