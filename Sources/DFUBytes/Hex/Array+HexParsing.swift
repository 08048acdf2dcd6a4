extension Array where Element == UInt8 {
    /// Parses hexadecimal text such as "0a1B", "0a 1b" or "0a:1b:2c" (any case). Spaces, tabs,
    /// newlines and colons between bytes are ignored. Returns nil for any other character or an
    /// odd number of hex digits.
    public init?(hex text: String) {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count / 2)
        var high: UInt8?
        for unit in text.utf8 {
            let nibble: UInt8
            switch unit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = unit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = unit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = unit - UInt8(ascii: "A") + 10
            case UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: "\t"), UInt8(ascii: "\n"),
                 UInt8(ascii: "\r"):
                // A separator may only fall between two bytes, never inside one ("0 a").
                guard high == nil else { return nil }
                continue
            default:
                return nil
            }
            if let pending = high {
                result.append(pending << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        guard high == nil else { return nil }
        self = result
    }
}
