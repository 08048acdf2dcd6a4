import DFUBytes

/// A value expressions compute with: integers, booleans, byte strings, text, and records
/// (`image`, a command's response fields, a chunk).
public enum Value: Sendable, Equatable, CustomStringConvertible {
    case integer(UInt64)
    case boolean(Bool)
    case bytes([UInt8])
    case string(String)
    case record([String: Value])
    /// A list (a CBOR array in a device's answer).
    case list([Value])

    public var typeName: String {
        switch self {
        case .integer: return "integer"
        case .boolean: return "boolean"
        case .bytes: return "bytes"
        case .string: return "string"
        case .record: return "record"
        case .list: return "list"
        }
    }

    public var description: String {
        switch self {
        case let .integer(value): return value > 9 ? "\(value) (0x\(String(value, radix: 16)))" : "\(value)"
        case let .boolean(value): return "\(value)"
        case let .bytes(value):
            let shown = value.prefix(16).hexString
            return value.count > 16 ? "\(value.count) bytes \(shown)..." : (value.isEmpty ? "0 bytes" : shown)
        case let .string(value): return "'\(value)'"
        case let .record(fields): return "{" + fields.keys.sorted().joined(separator: ", ") + "}"
        case let .list(items): return "[\(items.count) items]"
        }
    }
}
