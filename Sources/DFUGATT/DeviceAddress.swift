/// A Bluetooth device address, written most significant byte first ("C0:11:22:33:44:55").
public struct DeviceAddress: Sendable, Hashable, CustomStringConvertible, Comparable {
    /// Six bytes, most significant first (the reverse of the over-the-air order).
    public let bytes: [UInt8]

    /// An address from its six bytes, most significant first; nil unless there are exactly six.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 6 else { return nil }
        self.bytes = bytes
    }

    /// Parses "C0:11:22:33:44:55" (or with dashes).
    public init?(string: String) {
        let parts = string.split(whereSeparator: { $0 == ":" || $0 == "-" })
        guard parts.count == 6 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard part.count == 2, let byte = UInt8(part, radix: 16) else { return nil }
            bytes.append(byte)
        }
        self.bytes = bytes
    }

    /// The 48-bit value.
    public var value: UInt64 { bytes.reduce(0) { $0 << 8 | UInt64($1) } }

    /// An address from its 48-bit value (bits above the low 48 are ignored).
    public init(value: UInt64) {
        self.bytes = (0..<6).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    /// The address plus `delta`, wrapping within the low 48 bits (Nordic bootloaders without
    /// bond sharing advertise on their application's address + 1).
    public func adding(_ delta: Int64) -> DeviceAddress {
        DeviceAddress(value: (value &+ UInt64(bitPattern: delta)) & 0xFFFF_FFFF_FFFF)
    }

    public var description: String {
        bytes.map { byte in
            let text = String(byte, radix: 16, uppercase: true)
            return byte < 0x10 ? "0" + text : text
        }.joined(separator: ":")
    }

    public static func < (lhs: DeviceAddress, rhs: DeviceAddress) -> Bool { lhs.value < rhs.value }
}
