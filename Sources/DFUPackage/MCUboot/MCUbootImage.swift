import DFUBytes

/// An MCUboot image as `imgtool sign` writes it: header, payload, optional protected TLV area
/// and the TLV area, then possibly padding or a trailer (`--pad`).
///
/// The whole file is what an SMP upload sends; the SHA256 TLV (`sha256TLV`) is the hash MCUmgr
/// reports in its image list and takes for test / confirm.
public struct MCUbootImage: Sendable, Equatable {
    public let header: MCUbootImageHeader
    /// The protected TLV area (magic 0x6908), present when `header.protectedTLVSize` is not 0.
    public let protectedTLVArea: MCUbootTLVArea?
    /// The TLV area (magic 0x6907).
    public let tlvArea: MCUbootTLVArea
    /// The whole file.
    public let bytes: [UInt8]
    /// SHA-256 over the hashed range (header, payload, protected TLV area), computed from `bytes`.
    public let computedSHA256: [UInt8]

    /// Parses `bytes` (a whole image file).
    /// - Throws: `MCUbootImageError` with the byte offset of the first field that is wrong or of
    ///   the data that is missing: bad magic, a header, payload or TLV area past the end, an
    ///   area size that disagrees with the header, a TLV longer than its area.
    public init(bytes: [UInt8]) throws(MCUbootImageError) {
        let header = try MCUbootImageHeader(decoding: bytes)
        let payloadEnd = header.payloadEndOffset
        guard payloadEnd <= bytes.count else {
            throw .payloadPastEnd(payloadEnd: payloadEnd, fileSize: bytes.count)
        }
        var protectedArea: MCUbootTLVArea?
        if header.protectedTLVSize > 0 {
            protectedArea = try MCUbootTLVArea.parse(bytes, at: payloadEnd, magic: MCUbootTLVArea.protectedMagic,
                                                     expectedSize: header.protectedTLVSize)
        }
        let mainOffset = payloadEnd + header.protectedTLVSize
        let mainArea = try MCUbootTLVArea.parse(bytes, at: mainOffset, magic: MCUbootTLVArea.mainMagic, expectedSize: nil)

        let hasher = SHA256Hasher()
        hasher.update(bytes[0..<mainOffset])
        self.header = header
        self.protectedTLVArea = protectedArea
        self.tlvArea = mainArea
        self.bytes = bytes
        self.computedSHA256 = hasher.finalize()
    }

    /// The name DFUKit gives the image with MCUboot image number `index` in reports: `image-0`.
    public static func imageName(index: Int) -> String { "image-\(index)" }

    /// The header's version, e.g. `1.2.3+4`.
    public var version: MCUbootImageVersion { header.version }

    /// Every TLV, the protected ones first, in file order.
    public var tlvs: [MCUbootTLV] { (protectedTLVArea?.tlvs ?? []) + tlvArea.tlvs }

    /// The first TLV of `type`, protected or not.
    public func tlv(_ type: MCUbootTLVType) -> MCUbootTLV? {
        tlvs.first { $0.type == type }
    }

    /// The SHA256 TLV's value (32 bytes as stored): the image hash MCUmgr lists and confirms.
    public var sha256TLV: [UInt8]? { tlvArea.tlvs.first { $0.type == .sha256 }?.value }

    /// Bytes covered by the hash and signatures: header, payload and protected TLV area.
    public var hashedByteCount: Int { header.payloadEndOffset + header.protectedTLVSize }

    /// The payload (after the header and its padding).
    public var payload: ArraySlice<UInt8> { bytes[header.headerSize..<header.payloadEndOffset] }

    /// Bytes after the TLV area (padding and trailer of `imgtool sign --pad`); usually 0.
    public var trailingByteCount: Int { bytes.count - tlvArea.endOffset }

    /// Whether the SHA256 TLV equals the SHA-256 of the hashed range. False without a SHA256 TLV.
    public var sha256TLVMatches: Bool { sha256TLV == computedSHA256 }

    /// The signature TLV MCUboot would check (ECDSASIG, ED25519, RSA2048 or RSA3072), if any.
    public var signatureTLV: MCUbootTLV? { tlvArea.tlvs.first { $0.type.isSignature } }
}
