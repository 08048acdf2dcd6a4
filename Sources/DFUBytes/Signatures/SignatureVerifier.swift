import CCryptoShim

/// Firmware signature checks over Crypto++ (through CCryptoShim).
///
/// Returns true for a valid signature and false for a wrong or malformed signature; throws
/// `SignatureError` only when the key itself is unusable, since that is a configuration
/// problem rather than a bad image.
public enum SignatureVerifier {
    /// How an ECDSA signature is encoded.
    public enum ECDSASignatureFormat: String, Sendable, Hashable, CaseIterable {
        /// r || s, 32 bytes each, big-endian (IEEE P1363; what MCUboot and JOSE use).
        case raw
        /// ASN.1 DER SEQUENCE { r INTEGER, s INTEGER } (what `openssl dgst -sign` writes).
        case der
    }

    /// Verifies an ECDSA P-256 (secp256r1) signature over SHA-256(`message`).
    /// - Parameter publicKeyDER: a DER SubjectPublicKeyInfo (the body of a PEM "PUBLIC KEY");
    ///   a key on any other curve is malformed.
    public static func verifyECDSAP256(publicKeyDER: [UInt8], message: [UInt8], signature: [UInt8],
                                       format: ECDSASignatureFormat) throws(SignatureError) -> Bool {
        let status = publicKeyDER.withUnsafeBufferPointer { key in
            message.withUnsafeBufferPointer { message in
                signature.withUnsafeBufferPointer { signature in
                    dfukit_ecdsa_p256_verify(key.baseAddress, key.count, message.baseAddress, message.count,
                                             signature.baseAddress, signature.count, format == .der ? 1 : 0)
                }
            }
        }
        return try interpret(status, algorithm: "ECDSA P-256", keyByteCount: publicKeyDER.count)
    }

    /// Verifies an Ed25519 signature (64 bytes) over `message` itself (PureEdDSA).
    /// - Parameter publicKey: a raw 32-byte key or a DER SubjectPublicKeyInfo.
    public static func verifyEd25519(publicKey: [UInt8], message: [UInt8],
                                     signature: [UInt8]) throws(SignatureError) -> Bool {
        let status = publicKey.withUnsafeBufferPointer { key in
            message.withUnsafeBufferPointer { message in
                signature.withUnsafeBufferPointer { signature in
                    dfukit_ed25519_verify(key.baseAddress, key.count, message.baseAddress, message.count,
                                          signature.baseAddress, signature.count)
                }
            }
        }
        return try interpret(status, algorithm: "Ed25519", keyByteCount: publicKey.count)
    }

    private static func interpret(_ status: Int32, algorithm: String,
                                  keyByteCount: Int) throws(SignatureError) -> Bool {
        switch status {
        case DFUKIT_CRYPTO_OK: return true
        case DFUKIT_CRYPTO_BAD_SIGNATURE: return false
        case DFUKIT_CRYPTO_BAD_KEY: throw .malformedPublicKey(algorithm: algorithm, byteCount: keyByteCount)
        default: throw .cryptoFailure(algorithm: algorithm, code: status)
        }
    }
}
