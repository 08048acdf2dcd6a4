/// A Bluetooth UUID: 16-bit and 32-bit SIG-assigned values are aliases of 128-bit UUIDs on the
/// Bluetooth Base UUID `0000xxxx-0000-1000-8000-00805F9B34FB`. Stored as its 128-bit big-endian
/// bytes so that "180D" and "0000180D-0000-1000-8000-00805F9B34FB" compare equal.
public struct BluetoothUUID: Sendable, Hashable, CustomStringConvertible {
    /// The 16 bytes of the 128-bit form, most significant first (as written in text).
    public let bytes: [UInt8]

    /// The Bluetooth Base UUID, 00000000-0000-1000-8000-00805F9B34FB.
    package static let baseBytes: [UInt8] = [
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0x80, 0x5F, 0x9B, 0x34, 0xFB,
    ]

    /// A UUID from its 16 bytes, most significant first; fewer or more is a programming error.
    public init(bytes128: [UInt8]) {
        precondition(bytes128.count == 16, "a 128-bit UUID has 16 bytes")
        self.bytes = bytes128
    }

    /// A 16-bit SIG-assigned UUID such as 0x180D.
    public init(uuid16: UInt16) {
        self.init(uuid32: UInt32(uuid16))
    }

    /// A 32-bit SIG-assigned UUID.
    public init(uuid32: UInt32) {
        var bytes = Self.baseBytes
        bytes[0] = UInt8(truncatingIfNeeded: uuid32 >> 24)
        bytes[1] = UInt8(truncatingIfNeeded: uuid32 >> 16)
        bytes[2] = UInt8(truncatingIfNeeded: uuid32 >> 8)
        bytes[3] = UInt8(truncatingIfNeeded: uuid32)
        self.bytes = bytes
    }

    /// Parses "180D", "0000180D" or "0000180D-0000-1000-8000-00805F9B34FB" (any case; the
    /// 128-bit form with or without dashes). Returns nil for anything else.
    public init?(string: String) {
        let hex = string.filter { $0 != "-" }
        guard hex.allSatisfy(\.isHexDigit) else { return nil }
        switch hex.count {
        case 4:
            guard string.count == 4, let value = UInt16(hex, radix: 16) else { return nil }
            self.init(uuid16: value)
        case 8:
            guard string.count == 8, let value = UInt32(hex, radix: 16) else { return nil }
            self.init(uuid32: value)
        case 32:
            if string.count == 36 {
                let dashes = string.enumerated().filter { $0.element == "-" }.map(\.offset)
                guard dashes == [8, 13, 18, 23] else { return nil }
            } else if string.count != 32 {
                return nil
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(16)
            var index = hex.startIndex
            while index < hex.endIndex {
                let next = hex.index(index, offsetBy: 2)
                guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
                bytes.append(byte)
                index = next
            }
            self.init(bytes128: bytes)
        default:
            return nil
        }
    }

    /// Decodes the little-endian wire form used by ATT: 2, 4 or 16 bytes.
    public init?(littleEndianBytes wire: [UInt8]) {
        switch wire.count {
        case 2: self.init(uuid16: UInt16(wire[0]) | UInt16(wire[1]) << 8)
        case 4:
            self.init(uuid32: UInt32(wire[0]) | UInt32(wire[1]) << 8 | UInt32(wire[2]) << 16 | UInt32(wire[3]) << 24)
        case 16: self.init(bytes128: wire.reversed())
        default: return nil
        }
    }

    /// Whether it lies on the Bluetooth Base UUID (so has a 16- or 32-bit short form).
    package var isSIGBased: Bool { Array(bytes[4...]) == Array(Self.baseBytes[4...]) }

    /// The 16-bit value when this is a SIG-based UUID whose top 16 bits are zero.
    package var uuid16: UInt16? {
        guard isSIGBased, bytes[0] == 0, bytes[1] == 0 else { return nil }
        return UInt16(bytes[2]) << 8 | UInt16(bytes[3])
    }

    /// The 32-bit value when this is a SIG-based UUID.
    package var uuid32: UInt32? {
        guard isSIGBased else { return nil }
        return UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3])
    }

    /// The shortest little-endian wire form (2, 4 or 16 bytes), as ATT carries it.
    package var littleEndianBytes: [UInt8] {
        if let short = uuid16 { return [UInt8(short & 0xFF), UInt8(short >> 8)] }
        return bytes.reversed()
    }

    /// Canonical upper-case 128-bit text, 8-4-4-4-12.
    public var uuidString: String {
        let hex = bytes.map { byte -> String in
            let text = String(byte, radix: 16, uppercase: true)
            return byte < 0x10 ? "0" + text : text
        }
        return [0..<4, 4..<6, 6..<8, 8..<10, 10..<16].map { hex[$0].joined() }.joined(separator: "-")
    }

    /// "180D" for 16-bit SIG UUIDs, the full 128-bit text otherwise.
    public var description: String {
        if let short = uuid16 {
            let text = String(short, radix: 16, uppercase: true)
            return String(repeating: "0", count: 4 - text.count) + text
        }
        return uuidString
    }
}
