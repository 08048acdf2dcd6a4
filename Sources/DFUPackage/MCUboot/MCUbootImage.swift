import DFUBytes

/// An MCUboot image as `imgtool sign` writes it: header, payload, optional protected TLV area
/// and the TLV area, then possibly padding or a trailer (`--pad`).
///
/// The whole file is what an SMP upload sends; the image hash TLV (`imageHash`: SHA256, or
/// SHA384 / SHA512 in images built for them) is the hash MCUmgr reports in its image list and
/// takes for test / confirm.
public struct MCUbootImage: Sendable, Equatable {
    /// The image header.
    public let header: MCUbootImageHeader
    /// The protected TLV area (magic 0x6908), present when `header.protectedTLVSize` is not 0.
    package let protectedTLVArea: MCUbootTLVArea?
    /// The TLV area (magic 0x6907).
    package let tlvArea: MCUbootTLVArea
    /// The whole file.
    public let bytes: [UInt8]
    /// The hash the image declares: SHA-256, or SHA-384 / SHA-512 when its hash TLV is one of
    /// those (`imgtool sign` with a P-384 key or `--sha`).
    package let hashAlgorithm: SHA2Algorithm
    /// `hashAlgorithm` over the hashed range (header, payload, protected TLV area), computed from `bytes`.
    package let computedHash: [UInt8]

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

        let algorithm = Self.hashAlgorithm(of: mainArea.tlvs.first { Self.hashTypes.contains($0.type) }?.type)
        let hasher = SHA2Hasher(algorithm)
        hasher.update(bytes[0..<mainOffset])
        self.header = header
        self.protectedTLVArea = protectedArea
        self.tlvArea = mainArea
        self.bytes = bytes
        self.hashAlgorithm = algorithm
        self.computedHash = hasher.finalize()
    }

    /// The name DFUKit gives the image with MCUboot image number `index` in reports: `image-0`.
    package static func imageName(index: Int) -> String { "image-\(index)" }

    /// The header's version, e.g. `1.2.3+4`.
    public var version: MCUbootImageVersion { header.version }

    /// Every TLV, the protected ones first, in file order.
    public var tlvs: [MCUbootTLV] { (protectedTLVArea?.tlvs ?? []) + tlvArea.tlvs }

    /// The first TLV of `type`, protected or not.
    package func tlv(_ type: MCUbootTLVType) -> MCUbootTLV? {
        tlvs.first { $0.type == type }
    }

    /// The TLV types that hold the image hash, and the algorithm each names.
    static let hashTypes: [MCUbootTLVType] = [.sha256, .sha384, .sha512]

    static func hashAlgorithm(of type: MCUbootTLVType?) -> SHA2Algorithm {
        switch type {
        case .sha384?: return .sha384
        case .sha512?: return .sha512
        default: return .sha256
        }
    }

    /// The image hash TLV (SHA256, SHA384 or SHA512), if any.
    package var imageHashTLV: MCUbootTLV? { tlvArea.tlvs.first { Self.hashTypes.contains($0.type) } }

    /// The image hash TLV's value as stored: the hash MCUmgr lists and confirms.
    public var imageHash: [UInt8]? { imageHashTLV?.value }

    /// Bytes covered by the hash and signatures: header, payload and protected TLV area.
    package var hashedByteCount: Int { header.payloadEndOffset + header.protectedTLVSize }

    /// The payload (after the header and its padding).
    public var payload: ArraySlice<UInt8> { bytes[header.headerSize..<header.payloadEndOffset] }

    /// Bytes after the TLV area (padding and trailer of `imgtool sign --pad`); usually 0.
    package var trailingByteCount: Int { bytes.count - tlvArea.endOffset }

    /// Whether the image hash TLV equals the hash of the hashed range. False without one.
    package var imageHashMatches: Bool { imageHash == computedHash }

    /// The signature TLV MCUboot would check (ECDSASIG, ED25519, RSA2048 or RSA3072), if any.
    package var signatureTLV: MCUbootTLV? { tlvArea.tlvs.first { $0.type.isSignature } }
}
