#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif

/// An Ed25519 public key (RFC 8032): 32 bytes, read from and written as a PEM
/// SubjectPublicKeyInfo (RFC 8410, "-----BEGIN PUBLIC KEY-----"), the form `openssl pkey -pubout`
/// writes. Signatures are checked by Crypto++ (`SignatureVerifier.verifyEd25519`).
public struct Ed25519PublicKey: Sendable, Hashable {
    /// The DER SubjectPublicKeyInfo of an Ed25519 key (OID 1.3.101.112) up to the key's 32 bytes.
    static let subjectPublicKeyInfoPrefix: [UInt8] = [0x30, 0x2A, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x03, 0x21, 0x00]

    /// The key's 32 bytes (RFC 8032's encoding of the point A).
    public let rawBytes: [UInt8]

    /// The key of these 32 bytes.
    /// - Throws: when `rawBytes` is not 32 bytes long.
    public init(rawBytes: [UInt8]) throws(Ed25519KeyError) {
        guard rawBytes.count == 32 else {
            throw Ed25519KeyError("an Ed25519 public key is 32 bytes, not \(rawBytes.count)")
        }
        self.rawBytes = rawBytes
    }

    /// Reads a PEM "PUBLIC KEY" block holding an Ed25519 SubjectPublicKeyInfo.
    /// - Throws: for text that is not PEM, another label (a private key given where the public
    ///   one belongs) or another algorithm.
    public init(pem text: String) throws(Ed25519KeyError) {
        let decoded: (label: String, der: [UInt8])
        do {
            decoded = try PEM.decode(text)
        } catch {
            throw Ed25519KeyError("not a PEM public key: \(error)")
        }
        guard decoded.label == "PUBLIC KEY" else {
            throw Ed25519KeyError("the PEM block is a \(decoded.label), not a PUBLIC KEY"
                                  + (decoded.label.contains("PRIVATE") ? " (give the public key, e.g. station.pub)" : ""))
        }
        let prefix = Self.subjectPublicKeyInfoPrefix
        guard decoded.der.count == prefix.count + 32, Array(decoded.der.prefix(prefix.count)) == prefix else {
            throw Ed25519KeyError("the public key is not an Ed25519 key (RFC 8410 SubjectPublicKeyInfo, OID 1.3.101.112); "
                                  + "make one with 'dfukit station keygen' or 'openssl genpkey -algorithm ed25519'")
        }
        try self.init(rawBytes: Array(decoded.der.suffix(32)))
    }

    /// The DER SubjectPublicKeyInfo (44 bytes).
    public var subjectPublicKeyInfoDER: [UInt8] { Self.subjectPublicKeyInfoPrefix + rawBytes }

    /// The key as PEM text ("-----BEGIN PUBLIC KEY-----"), with a final newline.
    public var pem: String { PEM.encode(label: "PUBLIC KEY", der: subjectPublicKeyInfoDER) }

    /// The key's identifier: lowercase hex SHA-256 of its 32 raw bytes.
    public var keyID: String { SHA256.digest(rawBytes).hexString }

    /// Whether `signature` (64 bytes) is this key's Ed25519 signature of `message`. A signature
    /// of the wrong length, or a key Crypto++ refuses, is simply not valid.
    public func isValidSignature(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        (try? SignatureVerifier.verifyEd25519(publicKey: rawBytes, message: message, signature: signature)) ?? false
    }
}
