extension CBORValue {
    /// How many bytes of a byte string `description` shows before eliding the rest.
    static let describedByteLimit = 16

    /// RFC 8949 diagnostic notation; long byte strings are cut to their first bytes and length.
    public var description: String {
        switch self {
        case let .unsigned(value):
            return String(value)
        case let .negative(value):
            return value == .max ? "-18446744073709551616" : "-" + String(value + 1)
        case let .bytes(bytes):
            let shown = bytes.prefix(Self.describedByteLimit).map { byte in
                let hex = String(byte, radix: 16)
                return byte < 0x10 ? "0" + hex : hex
            }.joined()
            if bytes.count > Self.describedByteLimit {
                return "h'\(shown)…' (\(bytes.count) bytes)"
            }
            return "h'\(shown)'"
        case let .text(text):
            return text.debugDescription
        case let .array(elements):
            return "[" + elements.map(\.description).joined(separator: ", ") + "]"
        case let .map(entries):
            return "{" + entries.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        case let .boolean(flag):
            return flag ? "true" : "false"
        case .null:
            return "null"
        case let .float(value):
            if value.isNaN { return "NaN" }
            if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
            return String(value)
        }
    }
}
