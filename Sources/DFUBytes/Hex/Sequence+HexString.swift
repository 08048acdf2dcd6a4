extension Sequence where Element == UInt8 {
    /// Lower-case hexadecimal, two digits per byte, no separators: `[0x0A, 0xFF]` -> "0aff".
    /// Available on arrays, slices (`bytes.prefix(16).hexString`) and any other byte sequence.
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
