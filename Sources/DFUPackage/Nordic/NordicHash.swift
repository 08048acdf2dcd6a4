import DFUBytes

/// `InitCommand.hash` in dfu-cc.proto: `Hash { hash_type = 1; hash = 2; }`.
///
/// nrfutil stores the SHA-256 of the firmware `.bin` **byte-reversed** (little-endian, as the
/// nRF5 bootloader's crypto library compares it); `NordicHash.sha256Reversed(of:)` computes that.
public struct NordicHash: Sendable, Equatable {
    /// The hash algorithm.
    public let type: NordicHashType
    /// The digest as stored (for SHA-256: reversed).
    public let bytes: [UInt8]

    /// A hash of `type` with the digest `bytes` as stored.
    public init(type: NordicHashType, bytes: [UInt8]) {
        self.type = type
        self.bytes = bytes
    }

    /// The SHA-256 of `firmware`, byte-reversed, as nrfutil stores it in the init packet.
    package static func sha256Reversed(of firmware: [UInt8]) -> [UInt8] {
        Array(SHA256.digest(firmware).reversed())
    }

    /// Whether this is a SHA-256 hash equal to that of `firmware` (stored byte-reversed).
    public func matches(firmware: [UInt8]) -> Bool {
        type == .sha256 && bytes == Self.sha256Reversed(of: firmware)
    }

    /// The stored bytes in conventional (big-endian, `sha256sum`) order: reversed back.
    package var conventionalOrder: [UInt8] { Array(bytes.reversed()) }
}
