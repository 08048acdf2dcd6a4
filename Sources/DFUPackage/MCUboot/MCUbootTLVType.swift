/// The type of one MCUboot TLV (`it_type`, 16 bits little-endian in `struct image_tlv`; imgtool
/// writes its own types as a byte and a zero pad byte, which reads the same). Open: a type
/// without a name (vendor TLVs 0x00a0-0xfffe, newer MCUboot types) is kept and printed by number.
public struct MCUbootTLVType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The TLV type code (`IMAGE_TLV_*`).
    public let rawValue: UInt16

    /// The type with this code.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// SHA-256 of the DER SubjectPublicKeyInfo of the signing key.
    package static let keyHash = Self(rawValue: 0x01)
    /// The signing key itself (DER), instead of its hash (`--public-key-format full`).
    package static let publicKey = Self(rawValue: 0x02)
    /// SHA-256 over header, image and protected TLV area.
    public static let sha256 = Self(rawValue: 0x10)
    package static let sha384 = Self(rawValue: 0x11)
    package static let sha512 = Self(rawValue: 0x12)
    /// RSA-2048 PSS signature.
    package static let rsa2048 = Self(rawValue: 0x20)
    /// ECDSA signature, ASN.1 DER (P-256 with SHA256, P-384 with SHA384); `ECDSA256` before MCUboot 1.8.
    package static let ecdsaSignature = Self(rawValue: 0x22)
    /// RSA-3072 PSS signature.
    package static let rsa3072 = Self(rawValue: 0x23)
    /// Ed25519 signature over the image's SHA-256 digest (or over the image itself with `SIG_PURE`).
    package static let ed25519 = Self(rawValue: 0x24)
    /// Marks an Ed25519 signature made over the image itself rather than its digest (`--pure`).
    package static let signaturePure = Self(rawValue: 0x25)
    package static let encryptedRSA2048 = Self(rawValue: 0x30)
    package static let encryptedKeyWrap = Self(rawValue: 0x31)
    package static let encryptedEC256 = Self(rawValue: 0x32)
    package static let encryptedX25519 = Self(rawValue: 0x33)
    package static let encryptedX25519SHA512 = Self(rawValue: 0x34)
    /// Image dependency: image number and minimum version (protected).
    package static let dependency = Self(rawValue: 0x40)
    /// Security counter for rollback protection, u32 (protected).
    package static let securityCounter = Self(rawValue: 0x50)
    /// CBOR measured-boot record (protected).
    package static let bootRecord = Self(rawValue: 0x60)
    package static let decompressedSize = Self(rawValue: 0x70)
    package static let decompressedSHA = Self(rawValue: 0x71)
    package static let decompressedSignature = Self(rawValue: 0x72)
    package static let compressedDecompressedSize = Self(rawValue: 0x73)
    package static let vendorUUID = Self(rawValue: 0x74)
    package static let classUUID = Self(rawValue: 0x75)

    /// The names imgtool uses (`TLV_VALUES` in imgtool/image.py).
    private static let names: [UInt16: String] = [
        0x01: "KEYHASH", 0x02: "PUBKEY", 0x10: "SHA256", 0x11: "SHA384", 0x12: "SHA512",
        0x20: "RSA2048", 0x22: "ECDSASIG", 0x23: "RSA3072", 0x24: "ED25519", 0x25: "SIG_PURE",
        0x30: "ENCRSA2048", 0x31: "ENCKW", 0x32: "ENCEC256", 0x33: "ENCX25519", 0x34: "ENCX25519_SHA512",
        0x40: "DEPENDENCY", 0x50: "SEC_CNT", 0x60: "BOOT_RECORD", 0x70: "DECOMP_SIZE", 0x71: "DECOMP_SHA",
        0x72: "DECOMP_SIGNATURE", 0x73: "COMP_DEC_SIZE", 0x74: "UUID_VID", 0x75: "UUID_CID",
    ]

    /// imgtool's name, e.g. `SHA256`; `nil` for a type without one.
    public var name: String? { Self.names[rawValue] }

    /// Whether the type lies in the range MCUboot reserves for vendors (0x00a0-0xfffe).
    package var isVendorType: Bool { (0x00A0...0xFFFE).contains(rawValue) }

    /// The signature types: ECDSASIG, ED25519, RSA2048, RSA3072.
    package var isSignature: Bool { [Self.ecdsaSignature, .ed25519, .rsa2048, .rsa3072].contains(self) }

    /// `SHA256 (0x10)`, or `0x01a0` for a type without a name.
    public var description: String {
        let number = rawValue <= 0xFF ? MCUbootHex.short(Int(rawValue)) : MCUbootHex.halfword(rawValue)
        return name.map { "\($0) (\(number))" } ?? number
    }
}
