import CCryptoShim

/// The SHA-2 variants DFUKit checks: SHA-256 everywhere, SHA-384 and SHA-512 where MCUboot
/// images use them (P-384 keys, `imgtool sign --sha 384|512`).
public enum SHA2Algorithm: Int32, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// SHA-256: a 32-byte digest.
    case sha256 = 256
    /// SHA-384: a 48-byte digest.
    case sha384 = 384
    /// SHA-512: a 64-byte digest.
    case sha512 = 512

    /// Digest size in bytes.
    package var digestSize: Int { Int(rawValue) / 8 }

    /// "SHA-256".
    public var description: String { "SHA-\(rawValue)" }

    /// The one-shot digest of `bytes`.
    public func digest(_ bytes: [UInt8]) -> [UInt8] {
        let hasher = SHA2Hasher(self)
        hasher.update(bytes)
        return hasher.finalize()
    }
}

/// Streaming SHA-2 over Crypto++ (through CCryptoShim; SHA-NI accelerated where available).
/// Owns its C context, freed in `deinit`. A class rather than a struct because the context
/// cannot be copied; not `Sendable`: confine one hasher to one task.
package class SHA2Hasher {
    /// The variant it computes.
    public let algorithm: SHA2Algorithm
    private let context: OpaquePointer

    /// A hasher over no bytes yet.
    public init(_ algorithm: SHA2Algorithm) {
        guard let context = dfukit_digest_new(algorithm.rawValue) else {
            fatalError("SHA2Hasher: out of memory allocating the \(algorithm) context")
        }
        self.algorithm = algorithm
        self.context = context
    }

    deinit {
        dfukit_digest_free(context)
    }

    /// Adds the bytes of `buffer` to the digest.
    public func update(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        let status = dfukit_digest_update(context, base.assumingMemoryBound(to: UInt8.self), buffer.count)
        precondition(status == DFUKIT_CRYPTO_OK, "SHA2Hasher: Crypto++ update failed (\(status))")
    }

    /// Adds `bytes` to the digest.
    public func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Adds `bytes` to the digest.
    public func update(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest of everything passed to `update`; the hasher then starts over empty.
    package func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: algorithm.digestSize)
        let status = digest.withUnsafeMutableBufferPointer { dfukit_digest_final(context, $0.baseAddress, $0.count) }
        precondition(status == DFUKIT_CRYPTO_OK, "SHA2Hasher: Crypto++ final failed (\(status))")
        return digest
    }
}

/// Streaming SHA-256, the hash almost everything uses.
package final class SHA256Hasher: SHA2Hasher {
    /// Digest size in bytes.
    package static let digestSize = 32

    /// A SHA-256 hasher over no bytes yet.
    public init() {
        super.init(.sha256)
    }
}
