import DFUBytes

/// A value expressions compute with: integers, booleans, byte strings, text, and records
/// (`image`, a command's response fields, a chunk).
public enum Value: Sendable, Equatable, CustomStringConvertible {
    /// An unsigned integer (fields, sizes, offsets, CRCs).
    case integer(UInt64)
    /// The result of a condition.
    case boolean(Bool)
    /// A byte string (hashes, raw fields, chunk data).
    case bytes([UInt8])
    /// Text (names, versions).
    case string(String)
    /// Named fields: `image`, a response, a chunk.
    case record([String: Value])
    /// A list (a CBOR array in a device's answer).
    case list([Value])

    package var typeName: String {
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
