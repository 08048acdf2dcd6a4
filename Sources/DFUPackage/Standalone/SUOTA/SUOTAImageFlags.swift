/// The header's flags byte (mkimage image.h).
public struct SUOTAImageFlags: OptionSet, Sendable, Hashable {
    /// The header's flags byte.
    public let rawValue: UInt8
    /// The flags of this byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `IMG_ENCRYPTED`: the code is AES-128-CBC encrypted; the CRC covers the clear code.
    package static let encrypted = SUOTAImageFlags(rawValue: 0x01)
    /// `IMG_SIGNED` (later SDK 6 mkimage variants, with key information in the reserved bytes).
    public static let signed = SUOTAImageFlags(rawValue: 0x02)

    /// "none", "encrypted", "encrypted, signed", "0x84 (unknown bits 0x84)".
    public var summary: String {
        var names: [String] = []
        if contains(.encrypted) { names.append("encrypted") }
        if contains(.signed) { names.append("signed") }
        let unknown = rawValue & ~(Self.encrypted.rawValue | Self.signed.rawValue)
        if unknown != 0 { names.append("unknown bits 0x" + String(unknown, radix: 16, uppercase: true)) }
        return names.isEmpty ? "none" : names.joined(separator: ", ")
    }
}
