/// Number formatting shared by MCUboot reports and errors.
enum MCUbootHex {
    /// `0x96f3b83d`: eight lowercase hex digits.
    static func word(_ value: UInt32) -> String { padded(UInt64(value), digits: 8) }

    /// `0x0010`: four lowercase hex digits.
    static func halfword(_ value: UInt16) -> String { padded(UInt64(value), digits: 4) }

    /// `0x7a0c`: as few digits as needed, for offsets and sizes.
    static func short(_ value: Int) -> String { "0x" + String(value, radix: 16) }

    static func padded(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
