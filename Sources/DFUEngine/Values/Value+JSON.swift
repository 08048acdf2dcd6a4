import DFUBytes

extension Value {
    /// A JSON-ready form (for `dfukit exec --json`): bytes as lowercase hex text.
    public var jsonObject: Any {
        switch self {
        case let .integer(number): return number
        case let .boolean(flag): return flag
        case let .bytes(bytes): return bytes.hexString
        case let .string(text): return text
        case let .record(fields): return fields.mapValues(\.jsonObject)
        case let .list(items): return items.map(\.jsonObject)
        }
    }
}
