import DFUBytes

/// Converts between device CBOR and profile values: maps with text keys become records,
/// arrays lists, integers integers (a negative one becomes its decimal text, since profile
/// integers are unsigned), byte strings bytes, text strings text.
package enum CBORBridge {
    package static func value(_ cbor: CBORValue) -> Value {
        switch cbor {
        case let .unsigned(number): return .integer(number)
        case let .negative(number): return .string(number == .max ? "-18446744073709551616" : "-\(number + 1)")
        case let .bytes(bytes): return .bytes(bytes)
        case let .text(text): return .string(text)
        case let .array(items): return .list(items.map(value))
        case let .map(entries):
            var record: [String: Value] = [:]
            for entry in entries {
                let key: String
                switch entry.key {
                case let .text(text): key = text
                case let .unsigned(number): key = "\(number)"
                default: key = "\(entry.key)"
                }
                record[key] = value(entry.value)
            }
            return .record(record)
        case let .boolean(flag): return .boolean(flag)
        case .null: return .list([])
        case let .float(number): return .string("\(number)")
        }
    }

    package static func cbor(_ value: Value) -> CBORValue {
        switch value {
        case let .integer(number): return .unsigned(number)
        case let .boolean(flag): return .boolean(flag)
        case let .bytes(bytes): return .bytes(bytes)
        case let .string(text): return .text(text)
        case let .list(items): return .array(items.map(cbor))
        case let .record(fields):
            return .map(fields.keys.sorted().map { CBORMapEntry(.text($0), cbor(fields[$0]!)) })
        }
    }
}
