import CCryptoShim
#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif

/// An Ed25519 private key (RFC 8032) that signs through Crypto++: its 32-byte seed, read from and
/// written as an unencrypted PEM PKCS#8 "PRIVATE KEY" (RFC 8410), the form
/// `openssl genpkey -algorithm ed25519` writes and `openssl pkeyutl` reads.
public struct Ed25519PrivateKey: Sendable {
    /// The DER PKCS#8 PrivateKeyInfo of an Ed25519 key (version 0, OID 1.3.101.112) up to the seed.
    static let pkcs8Prefix: [UInt8] = [0x30, 0x2E, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70,
                                       0x04, 0x22, 0x04, 0x20]

    /// The 32-byte seed (RFC 8032's private key).
    private let seed: [UInt8]
    /// The public key that goes with it.
    public let publicKey: Ed25519PublicKey

    /// The key of this 32-byte seed (RFC 8032 section 5.1.5).
    /// - Throws: when `seed` is not 32 bytes long.
    public init(seed: [UInt8]) throws(Ed25519KeyError) {
        guard seed.count == 32 else { throw Ed25519KeyError("an Ed25519 private key is a 32-byte seed, not \(seed.count) bytes") }
        var publicBytes = [UInt8](repeating: 0, count: 32)
        let status = seed.withUnsafeBufferPointer { seed in
            publicBytes.withUnsafeMutableBufferPointer { dfukit_ed25519_public_key(seed.baseAddress, $0.baseAddress) }
        }
        guard status == DFUKIT_CRYPTO_OK else { throw Ed25519KeyError("Crypto++ refused the Ed25519 seed (code \(status))") }
        self.seed = seed
        publicKey = try Ed25519PublicKey(rawBytes: publicBytes)
    }

    /// A new key from the operating system's random source.
    /// - Throws: when Crypto++ cannot make one (no random source).
    public static func generate() throws(Ed25519KeyError) -> Ed25519PrivateKey {
        var seed = [UInt8](repeating: 0, count: 32)
        var publicBytes = [UInt8](repeating: 0, count: 32)
        let status = seed.withUnsafeMutableBufferPointer { seed in
            publicBytes.withUnsafeMutableBufferPointer { dfukit_ed25519_generate(seed.baseAddress, $0.baseAddress) }
        }
        guard status == DFUKIT_CRYPTO_OK else {
            throw Ed25519KeyError("Crypto++ could not make an Ed25519 key (code \(status)): is /dev/urandom readable?")
        }
        return try Ed25519PrivateKey(seed: seed)
    }

    /// Reads a PEM "PRIVATE KEY" block holding an unencrypted Ed25519 PKCS#8 key (with or without
    /// the public key, RFC 8410 versions 1 and 2), decoded by Crypto++.
    /// - Throws: for text that is not PEM, a public key, an encrypted key or another algorithm.
    public init(pem text: String) throws(Ed25519KeyError) {
        let decoded: (label: String, der: [UInt8])
        do {
            decoded = try PEM.decode(text)
        } catch {
            throw Ed25519KeyError("not a PEM private key: \(error)")
        }
        guard decoded.label == "PRIVATE KEY" else {
            let hint = decoded.label == "PUBLIC KEY" ? " (that is the public key: give the private one, e.g. station.key)"
                : decoded.label == "ENCRYPTED PRIVATE KEY" ? " (encrypted keys are not supported: 'openssl pkey -in KEY -out PLAIN')" : ""
            throw Ed25519KeyError("the PEM block is a \(decoded.label), not a PRIVATE KEY\(hint)")
        }
        var seed = [UInt8](repeating: 0, count: 32)
        let status = decoded.der.withUnsafeBufferPointer { der in
            seed.withUnsafeMutableBufferPointer { dfukit_ed25519_seed_from_pkcs8(der.baseAddress, der.count, $0.baseAddress) }
        }
        guard status == DFUKIT_CRYPTO_OK else {
            throw Ed25519KeyError("the private key is not an Ed25519 key (RFC 8410 PKCS#8, OID 1.3.101.112); "
                                  + "make one with 'dfukit station keygen' or 'openssl genpkey -algorithm ed25519'")
        }
        try self.init(seed: seed)
    }

    /// The key as PEM PKCS#8 text ("-----BEGIN PRIVATE KEY-----", RFC 8410 version 1), with a
    /// final newline. Keep it secret: write it to a file only its owner reads.
    public var pem: String { PEM.encode(label: "PRIVATE KEY", der: Self.pkcs8Prefix + seed) }

    /// The Ed25519 signature (64 bytes) of `message` itself (PureEdDSA; deterministic).
    public func signature(of message: [UInt8]) -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: 64)
        let status = seed.withUnsafeBufferPointer { seed in
            message.withUnsafeBufferPointer { message in
                signature.withUnsafeMutableBufferPointer {
                    dfukit_ed25519_sign(seed.baseAddress, message.baseAddress, message.count, $0.baseAddress)
                }
            }
        }
        // The seed was checked when the key was made; signing a byte string cannot fail after that.
        precondition(status == DFUKIT_CRYPTO_OK, "Crypto++ failed to sign with a checked Ed25519 key (code \(status))")
        return signature
    }
}
