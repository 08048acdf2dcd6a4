import CCryptoShim

/// Firmware signature checks over Crypto++ (through CCryptoShim).
///
/// Returns true for a valid signature and false for a wrong or malformed signature; throws
/// `SignatureError` only when the key itself is unusable, since that is a configuration
/// problem rather than a bad image.
package enum SignatureVerifier {
    /// How an ECDSA signature is encoded.
    package enum ECDSASignatureFormat: String, Sendable, Hashable, CaseIterable {
        /// r || s, 32 bytes each, big-endian (IEEE P1363; what MCUboot and JOSE use).
        case raw
        /// ASN.1 DER SEQUENCE { r INTEGER, s INTEGER } (what `openssl dgst -sign` writes).
        case der
    }

    /// Verifies an ECDSA P-256 (secp256r1) signature over SHA-256(`message`).
    /// - Parameter publicKeyDER: a DER SubjectPublicKeyInfo (the body of a PEM "PUBLIC KEY");
    ///   a key on any other curve is malformed.
    package static func verifyECDSAP256(publicKeyDER: [UInt8], message: [UInt8], signature: [UInt8],
                                       format: ECDSASignatureFormat) throws(SignatureError) -> Bool {
        try verifyECDSA(curveBits: 256, publicKeyDER: publicKeyDER, message: message, signature: signature,
                        format: format)
    }

    /// Verifies an ECDSA P-384 (secp384r1) signature over SHA-384(`message`), as MCUboot pairs them.
    package static func verifyECDSAP384(publicKeyDER: [UInt8], message: [UInt8], signature: [UInt8],
                                       format: ECDSASignatureFormat) throws(SignatureError) -> Bool {
        try verifyECDSA(curveBits: 384, publicKeyDER: publicKeyDER, message: message, signature: signature,
                        format: format)
    }

    private static func verifyECDSA(curveBits: Int32, publicKeyDER: [UInt8], message: [UInt8], signature: [UInt8],
                                    format: ECDSASignatureFormat) throws(SignatureError) -> Bool {
        let status = publicKeyDER.withUnsafeBufferPointer { key in
            message.withUnsafeBufferPointer { message in
                signature.withUnsafeBufferPointer { signature in
                    dfukit_ecdsa_verify(curveBits, key.baseAddress, key.count, message.baseAddress, message.count,
                                        signature.baseAddress, signature.count, format == .der ? 1 : 0)
                }
            }
        }
        return try interpret(status, algorithm: "ECDSA P-\(curveBits)", keyByteCount: publicKeyDER.count)
    }

    /// Verifies an RSASSA-PSS signature over SHA-256(`message`) with MGF1(SHA-256) and a 32-byte
    /// salt (MCUboot's RSA2048 and RSA3072 TLVs).
    /// - Parameter publicKeyDER: a DER SubjectPublicKeyInfo or PKCS#1 RSAPublicKey.
    package static func verifyRSAPSS(publicKeyDER: [UInt8], message: [UInt8],
                                    signature: [UInt8]) throws(SignatureError) -> Bool {
        let status = publicKeyDER.withUnsafeBufferPointer { key in
            message.withUnsafeBufferPointer { message in
                signature.withUnsafeBufferPointer { signature in
                    dfukit_rsa_pss_sha256_verify(key.baseAddress, key.count, message.baseAddress, message.count,
                                                 signature.baseAddress, signature.count)
                }
            }
        }
        return try interpret(status, algorithm: "RSA-PSS", keyByteCount: publicKeyDER.count)
    }

    /// An RSA key as PKCS#1 RSAPublicKey DER (what imgtool hashes into KEYHASH for RSA), and its
    /// modulus size in bits; nil when `publicKeyDER` is not an RSA key.
    package static func rsaPublicKey(_ publicKeyDER: [UInt8]) -> (pkcs1: [UInt8], modulusBits: Int)? {
        var output = [UInt8](repeating: 0, count: 2048)
        var written = 0
        let status = publicKeyDER.withUnsafeBufferPointer { key in
            output.withUnsafeMutableBufferPointer { out in
                dfukit_rsa_public_key_pkcs1(key.baseAddress, key.count, out.baseAddress, out.count, &written)
            }
        }
        let bits = publicKeyDER.withUnsafeBufferPointer { dfukit_rsa_modulus_bits($0.baseAddress, $0.count) }
        guard status == DFUKIT_CRYPTO_OK, bits > 0 else { return nil }
        return (Array(output.prefix(written)), Int(bits))
    }

    /// Verifies an Ed25519 signature (64 bytes) over `message` itself (PureEdDSA).
    /// - Parameter publicKey: a raw 32-byte key or a DER SubjectPublicKeyInfo.
    package static func verifyEd25519(publicKey: [UInt8], message: [UInt8],
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
