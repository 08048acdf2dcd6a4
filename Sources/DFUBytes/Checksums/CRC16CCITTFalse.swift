/// CRC-16/CCITT-FALSE (the catalogue's CRC-16/IBM-3740): polynomial 0x1021, init 0xFFFF, not
/// reflected, no final XOR; "123456789" -> 0x29B1. Used by several vendor bootloaders to check
/// images. A typed front for `CRC` with those parameters.
public struct CRC16CCITTFalse: Sendable, Hashable {
    /// CRC-16/IBM-3740's parameters.
    public static let parameters = CRCParameters(width: 16, poly: 0x1021, initial: 0xFFFF, reflectIn: false,
                                                 reflectOut: false, xorOut: 0)

    private var crc = CRC(Self.parameters)

    /// The CRC of everything passed to `update` so far.
    public var value: UInt16 { UInt16(truncatingIfNeeded: crc.finalize()) }

    /// A CRC over no bytes yet (its value is the initial 0xFFFF).
    public init() {}

    /// Adds the bytes of `buffer` to the computation.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        crc.update(buffer)
    }

    /// Adds `bytes` to the computation.
    public mutating func update(_ bytes: [UInt8]) {
        crc.update(bytes)
    }

    /// Adds `bytes` to the computation.
    public mutating func update(_ bytes: ArraySlice<UInt8>) {
        crc.update(bytes)
    }

    /// The CRC so far (same as `value`).
    package func finalize() -> UInt16 { value }

    /// The CRC-16/CCITT-FALSE of `bytes` in one call.
    public static func checksum(_ bytes: [UInt8]) -> UInt16 {
        var crc = CRC16CCITTFalse()
        crc.update(bytes)
        return crc.value
    }
}
