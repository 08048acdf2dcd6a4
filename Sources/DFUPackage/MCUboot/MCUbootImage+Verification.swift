import DFUBytes

extension MCUbootImage {
    /// What a KEYHASH TLV holds for a key: SHA-256 of its DER SubjectPublicKeyInfo (the body of
    /// the PEM that `imgtool getpub -e pem` prints).
    public static func keyHash(publicKeyDER: [UInt8]) -> [UInt8] {
        SHA256.digest(publicKeyDER)
    }

    /// Whether the image names `publicKeyDER` as its signing key: its KEYHASH TLV is the key's
    /// SHA-256, or its PUBKEY TLV is the key itself. `nil` when the image carries neither TLV.
    public func namesKey(publicKeyDER: [UInt8]) -> Bool? {
        if let keyHash = tlvArea.tlvs.first(where: { $0.type == .keyHash }) {
            return keyHash.value == Self.keyHash(publicKeyDER: publicKeyDER)
        }
        if let publicKey = tlvArea.tlvs.first(where: { $0.type == .publicKey }) {
            return publicKey.value == publicKeyDER
        }
        return nil
    }

    /// The bytes the signature covers, as imgtool signs them: ECDSA signs the hashed range
    /// (header, payload, protected TLVs) with SHA-256 itself; Ed25519 signs the 32-byte SHA-256
    /// digest of that range, or the range itself when a SIG_PURE TLV is present.
    public func signedMessage(for type: MCUbootTLVType) -> [UInt8] {
        if type == .ed25519, tlvArea.tlvs.first(where: { $0.type == .signaturePure }) == nil {
            return computedSHA256
        }
        return Array(bytes[0..<hashedByteCount])
    }

    /// Checks the signature TLV (ECDSASIG for P-256, or ED25519) with `publicKeyDER` (a DER
    /// SubjectPublicKeyInfo; for Ed25519 a raw 32-byte key works too).
    /// - Returns: false when the signature does not verify, and when the image has no signature
    ///   TLV or only an RSA one (not supported).
    /// - Throws: `SignatureError` when the key cannot check this kind of signature (e.g. an
    ///   Ed25519 key given for an ECDSA signature).
    public func checkSignature(publicKeyDER: [UInt8]) throws(SignatureError) -> Bool {
        guard let signature = signatureTLV else { return false }
        switch signature.type {
        case .ecdsaSignature:
            return try SignatureVerifier.verifyECDSAP256(
                publicKeyDER: publicKeyDER, message: signedMessage(for: .ecdsaSignature),
                signature: Self.derSequence(signature.value), format: .der)
        case .ed25519:
            return try SignatureVerifier.verifyEd25519(publicKey: publicKeyDER, message: signedMessage(for: .ed25519),
                                                       signature: signature.value)
        default:
            return false
        }
    }

    /// A DER signature without the zero bytes `imgtool sign --pad-sig` appends after the SEQUENCE.
    static func derSequence(_ signature: [UInt8]) -> [UInt8] {
        guard signature.count >= 2, signature[0] == 0x30, signature[1] < 0x80 else { return signature }
        let length = Int(signature[1]) + 2
        return length <= signature.count ? Array(signature.prefix(length)) : signature
    }
}
