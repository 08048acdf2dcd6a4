import DFUBytes

extension NordicInitPacket {
    /// The byte-reversed SHA-256 of `firmware`, as nrfutil stores it in `InitCommand.hash`.
    package static func expectedHash(of firmware: [UInt8]) -> [UInt8] {
        NordicHash.sha256Reversed(of: firmware)
    }

    /// Whether `InitCommand.hash` is a SHA-256 equal to that of `firmware` (stored byte-reversed).
    package func hashMatches(firmware: [UInt8]) -> Bool {
        initCommand.hash?.matches(firmware: firmware) ?? false
    }

    /// The ECDSA signature as `SignatureVerifier` takes it (`.raw`: r || s, big-endian): each
    /// 32-byte half of the stored signature reversed. `nil` unless the signature is 64 bytes.
    package var ecdsaSignatureBigEndian: [UInt8]? {
        guard let signature, signature.count == 64 else { return nil }
        return Array(signature[0..<32].reversed()) + Array(signature[32..<64].reversed())
    }

    /// Checks the signature over `initCommandBytes` with `publicKeyDER` (a DER SubjectPublicKeyInfo,
    /// the body of a PEM "PUBLIC KEY"; for Ed25519 a raw 32-byte key works too).
    /// - Returns: false for an unsigned packet, an unknown signature type, or a wrong signature.
    /// - Throws: `SignatureError` when the key itself is unusable for the signature type.
    package func checkSignature(publicKeyDER: [UInt8]) throws(SignatureError) -> Bool {
        guard let signature, !signature.isEmpty else { return false }
        switch signatureType ?? .ecdsaP256SHA256 {
        case .ecdsaP256SHA256:
            guard let raw = ecdsaSignatureBigEndian else { return false }
            return try SignatureVerifier.verifyECDSAP256(publicKeyDER: publicKeyDER, message: initCommandBytes,
                                                         signature: raw, format: .raw)
        case .ed25519:
            return try SignatureVerifier.verifyEd25519(publicKey: publicKeyDER, message: initCommandBytes,
                                                       signature: signature)
        default:
            return false
        }
    }

    /// Whether the signature is valid for `publicKeyDER`; false also when the key is unusable.
    package func verifySignature(publicKeyDER: [UInt8]) -> Bool {
        (try? checkSignature(publicKeyDER: publicKeyDER)) ?? false
    }
}
