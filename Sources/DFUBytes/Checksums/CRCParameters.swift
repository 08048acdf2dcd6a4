/// A CRC algorithm in the parametrised model of Ross Williams' "A Painless Guide to CRC Error
/// Detection Algorithms", as the CRC RevEng catalogue writes it
/// (https://reveng.sourceforge.io/crc-catalogue/): `width`, `poly`, `init`, `refin`, `refout`,
/// `xorout`. Values are written as the catalogue does: `poly` without its top bit and not
/// reflected, `init` as the register's value before the first bit whatever `refin` says.
public struct CRCParameters: Sendable, Hashable {
    /// Bits in the CRC, 1...64.
    public var width: Int
    /// The generator polynomial, most significant bit first, without the x^width term.
    package var poly: UInt64
    /// The register's value before the first byte.
    package var initial: UInt64
    /// Each input byte is taken least significant bit first.
    package var reflectIn: Bool
    /// The register is reflected before the final XOR.
    package var reflectOut: Bool
    /// XORed into the result.
    package var xorOut: UInt64

    /// Parameters as the catalogue writes them. `width` must be 1...64 (a programming error
    /// otherwise).
    public init(width: Int, poly: UInt64, initial: UInt64, reflectIn: Bool, reflectOut: Bool, xorOut: UInt64) {
        precondition((1...64).contains(width), "a CRC is 1 to 64 bits wide, not \(width)")
        self.width = width
        self.poly = poly & Self.mask(width)
        self.initial = initial & Self.mask(width)
        self.reflectIn = reflectIn
        self.reflectOut = reflectOut
        self.xorOut = xorOut & Self.mask(width)
    }

    /// The low `width` bits set.
    static func mask(_ width: Int) -> UInt64 {
        width >= 64 ? .max : (1 << UInt64(width)) - 1
    }

    /// The low `width` bits of `value` in reverse order.
    static func reflect(_ value: UInt64, width: Int) -> UInt64 {
        value.bitReversed >> UInt64(64 - width)
    }
}

extension UInt64 {
    /// The 64 bits in reverse order.
    var bitReversed: UInt64 {
        var value = self
        value = (value & 0x5555_5555_5555_5555) << 1 | (value >> 1) & 0x5555_5555_5555_5555
        value = (value & 0x3333_3333_3333_3333) << 2 | (value >> 2) & 0x3333_3333_3333_3333
        value = (value & 0x0F0F_0F0F_0F0F_0F0F) << 4 | (value >> 4) & 0x0F0F_0F0F_0F0F_0F0F
        return value.byteSwapped
    }
}
