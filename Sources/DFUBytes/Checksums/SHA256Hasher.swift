import CCryptoShim

/// Streaming SHA-256 over Crypto++ (through CCryptoShim; SHA-NI accelerated where available).
/// Owns its C context, freed in `deinit`. A class rather than a struct because the context
/// cannot be copied; not `Sendable`: confine one hasher to one task.
public final class SHA256Hasher {
    /// Digest size in bytes.
    public static let digestSize = 32

    private let context: OpaquePointer

    public init() {
        guard let context = dfukit_sha256_new() else {
            fatalError("SHA256Hasher: out of memory allocating the SHA-256 context")
        }
        self.context = context
    }

    deinit {
        dfukit_sha256_free(context)
    }

    public func update(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        let status = dfukit_sha256_update(context, base.assumingMemoryBound(to: UInt8.self), buffer.count)
        precondition(status == DFUKIT_CRYPTO_OK, "SHA256Hasher: Crypto++ update failed (\(status))")
    }

    public func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    public func update(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The 32-byte digest of everything passed to `update`; the hasher then starts over empty.
    public func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Self.digestSize)
        let status = digest.withUnsafeMutableBufferPointer { dfukit_sha256_final(context, $0.baseAddress) }
        precondition(status == DFUKIT_CRYPTO_OK, "SHA256Hasher: Crypto++ final failed (\(status))")
        return digest
    }
}
