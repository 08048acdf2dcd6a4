/// `ih_flags` of an MCUboot header (`IMAGE_F_*` in bootutil's `image.h`). Open: bits without a
/// name are kept and printed as hex.
public struct MCUbootImageFlags: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The `ih_flags` word.
    public let rawValue: UInt32

    /// The flags of an `ih_flags` word.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Position-independent code (not supported by MCUboot itself).
    package static let positionIndependent = Self(rawValue: 0x0000_0001)
    package static let encryptedAES128 = Self(rawValue: 0x0000_0004)
    package static let encryptedAES256 = Self(rawValue: 0x0000_0008)
    /// Split image application, not bootable on its own.
    package static let nonBootable = Self(rawValue: 0x0000_0010)
    /// Loaded into RAM before it runs (`--load-addr`).
    package static let ramLoad = Self(rawValue: 0x0000_0020)
    /// Built for a fixed flash address, `ih_load_addr` (`--rom-fixed`).
    package static let romFixed = Self(rawValue: 0x0000_0100)
    package static let compressedLZMA1 = Self(rawValue: 0x0000_0200)
    package static let compressedLZMA2 = Self(rawValue: 0x0000_0400)
    package static let compressedARMThumb = Self(rawValue: 0x0000_0800)

    /// Every named flag with imgtool's name, in bit order.
    public static let named: [(flag: MCUbootImageFlags, name: String)] = [
        (.positionIndependent, "PIC"), (.encryptedAES128, "ENCRYPTED_AES128"),
        (.encryptedAES256, "ENCRYPTED_AES256"), (.nonBootable, "NON_BOOTABLE"), (.ramLoad, "RAM_LOAD"),
        (.romFixed, "ROM_FIXED"), (.compressedLZMA1, "COMPRESSED_LZMA1"), (.compressedLZMA2, "COMPRESSED_LZMA2"),
        (.compressedARMThumb, "COMPRESSED_ARM_THUMB"),
    ]

    /// Whether the payload is encrypted (then the SHA256 TLV covers the plaintext).
    package var isEncrypted: Bool { !intersection([.encryptedAES128, .encryptedAES256]).isEmpty }

    /// The names of the set flags, unknown bits as `0x…`; empty when no flag is set.
    public var names: [String] {
        var names = Self.named.filter { contains($0.flag) }.map(\.name)
        let known = Self.named.reduce(UInt32(0)) { $0 | $1.flag.rawValue }
        let unknown = rawValue & ~known
        if unknown != 0 { names.append(MCUbootHex.word(unknown)) }
        return names
    }

    /// `0x00000100 (ROM_FIXED)`, `0x00000000 (none)`.
    public var description: String {
        "\(MCUbootHex.word(rawValue)) (\(names.isEmpty ? "none" : names.joined(separator: ", ")))"
    }
}
