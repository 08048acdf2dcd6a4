/// CRC-16/CCITT-FALSE (also "CRC-16/IBM-3740"): polynomial 0x1021, init 0xFFFF, not reflected,
/// no final XOR; "123456789" -> 0x29B1. Used by several vendor bootloaders to check images.
public struct CRC16CCITTFalse: Sendable, Hashable {
    /// The CRC of everything passed to `update` so far.
    public private(set) var value: UInt16 = 0xFFFF

    public init() {}

    /// One entry per value of the top byte of the register, MSB-first.
    static let table: [UInt16] = (0..<256).map { index -> UInt16 in
        var crc = UInt16(index) << 8
        for _ in 0..<8 {
            crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1
        }
        return crc
    }

    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        var crc = value
        Self.table.withUnsafeBufferPointer { table in
            for byte in buffer {
                crc = (crc << 8) ^ table[Int(UInt8(truncatingIfNeeded: crc >> 8) ^ byte)]
            }
        }
        value = crc
    }

    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    public mutating func update(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The CRC so far (same as `value`).
    public func finalize() -> UInt16 { value }

    /// The CRC-16/CCITT-FALSE of `bytes` in one call.
    public static func checksum(_ bytes: [UInt8]) -> UInt16 {
        var crc = CRC16CCITTFalse()
        crc.update(bytes)
        return crc.value
    }
}
