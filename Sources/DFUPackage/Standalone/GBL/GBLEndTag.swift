/// The end tag's body (`GblEnd_t`): the CRC-32 (zlib's) of the file from its first byte up to
/// and including the end tag's 8-byte header. Bootloaders run the CRC over every byte they parse,
/// the CRC field included, and accept the file when the result is the CRC-32 residue
/// (`btl_gbl_parser.c` `parser_finalize`, `BTL_CRC32_END`): the same condition.
package struct GBLEndTag: Sendable, Equatable {
    public var crc32: UInt32

    /// The CRC in `tag`; nil unless it is an end tag of 4 bytes.
    public init?(_ tag: GBLTag) {
        guard tag.id == .end, tag.body.count == 4, let crc = tag.u32(at: 0) else { return nil }
        crc32 = crc
    }
}

/// The signature tag's body (`GblSignatureEcdsaP256_t`): r and s, 32 bytes each, big-endian,
/// over the SHA-256 of every tag before it except the end tag (the parser hashes every tag
/// header and body but the signature's and the end tag's: `gbl_parseHeader`).
public struct GBLSignatureTag: Sendable, Equatable {
    /// The signature's r, 32 bytes big-endian.
    public var r: [UInt8]
    /// The signature's s, 32 bytes big-endian.
    public var s: [UInt8]

    /// The signature in `tag`; nil unless it is a signature tag of 64 bytes.
    public init?(_ tag: GBLTag) {
        guard tag.id == .signature, tag.body.count == 64 else { return nil }
        r = Array(tag.body[0..<32])
        s = Array(tag.body[32..<64])
    }
}
