/// One-shot SHA-256: `SHA256.digest(bytes)`. For data that arrives in pieces use `SHA256Hasher`.
public enum SHA256 {
    /// Digest size in bytes.
    package static let digestSize = SHA256Hasher.digestSize

    /// The 32-byte SHA-256 digest of `bytes`.
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        let hasher = SHA256Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }
}
