/// `SignedCommand.signature_type` in dfu-cc.proto (`SignatureType`). An open set: a value this
/// code does not know is kept and printed by number.
package struct NordicSignatureType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: Int32
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// `ECDSA_P256_SHA256`: r then s, each 32 bytes little-endian.
    package static let ecdsaP256SHA256 = NordicSignatureType(rawValue: 0)
    /// `ED25519`: the 64-byte signature as RFC 8032 writes it.
    package static let ed25519 = NordicSignatureType(rawValue: 1)

    /// The name in dfu-cc.proto, or `unknown(N)`.
    package var name: String {
        switch self {
        case .ecdsaP256SHA256: return "ECDSA_P256_SHA256"
        case .ed25519: return "ED25519"
        default: return "unknown(\(rawValue))"
        }
    }

    package var description: String { name }
}
