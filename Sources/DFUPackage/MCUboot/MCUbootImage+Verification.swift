import DFUBytes

extension MCUbootImage {
    /// What a KEYHASH TLV holds for a key, as imgtool computes it: the image's hash algorithm
    /// over the key's public bytes, which are the DER SubjectPublicKeyInfo for ECDSA and Ed25519
    /// keys (the body of the PEM `imgtool getpub -e pem` prints) and the PKCS#1 RSAPublicKey for
    /// RSA keys.
    package static func keyHash(publicKeyDER: [UInt8], algorithm: SHA2Algorithm = .sha256) -> [UInt8] {
        algorithm.digest(keyBytes(publicKeyDER))
    }

    /// The bytes imgtool hashes (KEYHASH) or embeds (PUBKEY) for a key.
    static func keyBytes(_ publicKeyDER: [UInt8]) -> [UInt8] {
        SignatureVerifier.rsaPublicKey(publicKeyDER)?.pkcs1 ?? publicKeyDER
    }

    /// Whether the image names `publicKeyDER` as its signing key: its KEYHASH TLV is the key's
    /// hash, or its PUBKEY TLV is the key itself. `nil` when the image carries neither TLV.
    package func namesKey(publicKeyDER: [UInt8]) -> Bool? {
        if let keyHash = tlvArea.tlvs.first(where: { $0.type == .keyHash }) {
            return keyHash.value == Self.keyHash(publicKeyDER: publicKeyDER, algorithm: hashAlgorithm)
        }
        if let publicKey = tlvArea.tlvs.first(where: { $0.type == .publicKey }) {
            return publicKey.value == Self.keyBytes(publicKeyDER) || publicKey.value == publicKeyDER
        }
        return nil
    }

    /// The bytes the signature covers, as imgtool signs them: ECDSA and RSA-PSS sign the hashed
    /// range (header, payload, protected TLVs) with their hash themselves; Ed25519 signs the
    /// image's hash digest, or the range itself when a SIG_PURE TLV is present.
    /// An encrypted image's digest is the hash TLV itself: the plaintext it covers is not here.
    package func signedMessage(for type: MCUbootTLVType) -> [UInt8] {
        if type == .ed25519, tlvArea.tlvs.first(where: { $0.type == .signaturePure }) == nil {
            return header.flags.isEncrypted ? (imageHash ?? computedHash) : computedHash
        }
        return Array(bytes[0..<hashedByteCount])
    }

    /// The algorithm of the signature TLV as MCUboot pairs it with the image hash: "ECDSA P-256"
    /// (SHA-256) or "ECDSA P-384" (SHA-384), "Ed25519", "RSA-2048 PSS", "RSA-3072 PSS"; nil for
    /// a pairing MCUboot does not build.
    package func signatureAlgorithm(_ type: MCUbootTLVType) -> String? {
        switch (type, hashAlgorithm) {
        case (.ecdsaSignature, .sha256): return "ECDSA P-256"
        case (.ecdsaSignature, .sha384): return "ECDSA P-384"
        case (.ed25519, _): return "Ed25519"
        case (.rsa2048, .sha256): return "RSA-2048 PSS"
        case (.rsa3072, .sha256): return "RSA-3072 PSS"
        default: return nil
        }
    }

    /// Checks the signature TLV with `publicKeyDER` (a DER SubjectPublicKeyInfo; for Ed25519 a
    /// raw 32-byte key works too, for RSA a PKCS#1 key).
    /// - Returns: false when the signature does not verify, and when the image has no signature
    ///   TLV or one paired with a hash MCUboot does not use.
    /// - Throws: `SignatureError` when the key cannot check this kind of signature (e.g. an
    ///   Ed25519 key given for an ECDSA signature, or an RSA key of another size).
    package func checkSignature(publicKeyDER: [UInt8]) throws(SignatureError) -> Bool {
        guard let signature = signatureTLV, let algorithm = signatureAlgorithm(signature.type) else { return false }
        let message = signedMessage(for: signature.type)
        switch signature.type {
        case .ecdsaSignature where hashAlgorithm == .sha384:
            return try SignatureVerifier.verifyECDSAP384(publicKeyDER: publicKeyDER, message: message,
                                                         signature: Self.derSequence(signature.value), format: .der)
        case .ecdsaSignature:
            return try SignatureVerifier.verifyECDSAP256(publicKeyDER: publicKeyDER, message: message,
                                                         signature: Self.derSequence(signature.value), format: .der)
        case .ed25519:
            return try SignatureVerifier.verifyEd25519(publicKey: publicKeyDER, message: message,
                                                       signature: signature.value)
        case .rsa2048, .rsa3072:
            let bits = signature.type == .rsa2048 ? 2048 : 3072
            guard let key = SignatureVerifier.rsaPublicKey(publicKeyDER), key.modulusBits == bits else {
                throw .malformedPublicKey(algorithm: algorithm, byteCount: publicKeyDER.count)
            }
            return try SignatureVerifier.verifyRSAPSS(publicKeyDER: publicKeyDER, message: message,
                                                      signature: signature.value)
        default:
            return false
        }
    }

    /// A DER signature without the zero bytes `imgtool sign --pad-sig` appends after the SEQUENCE.
    static func derSequence(_ signature: [UInt8]) -> [UInt8] {
        guard signature.count >= 2, signature[0] == 0x30 else { return signature }
        // Short form (P-256: up to 127 content bytes) or 0x81 NN (P-384 signatures reach 104).
        let (length, headerCount): (Int, Int)
        if signature[1] < 0x80 {
            (length, headerCount) = (Int(signature[1]), 2)
        } else if signature[1] == 0x81, signature.count >= 3 {
            (length, headerCount) = (Int(signature[2]), 3)
        } else {
            return signature
        }
        return length + headerCount <= signature.count ? Array(signature.prefix(length + headerCount)) : signature
    }
}
