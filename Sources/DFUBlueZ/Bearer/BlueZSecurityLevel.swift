/// BT_SECURITY levels (<bluetooth/bluetooth.h>): what the kernel requires of the link before
/// ATT traffic flows. `medium` and above encrypt the link (pairing if needed).
public struct BlueZSecurityLevel: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// BT_SECURITY_LOW: no encryption (the default of an LE link).
    public static let low = BlueZSecurityLevel(rawValue: 1)
    /// BT_SECURITY_MEDIUM: encrypted, unauthenticated pairing allowed (Just Works).
    public static let medium = BlueZSecurityLevel(rawValue: 2)
    /// BT_SECURITY_HIGH: encrypted with an authenticated (MITM-protected) key.
    public static let high = BlueZSecurityLevel(rawValue: 3)
    /// BT_SECURITY_FIPS: LE Secure Connections only.
    public static let fips = BlueZSecurityLevel(rawValue: 4)

    public var description: String {
        switch self {
        case .low: return "low"
        case .medium: return "medium"
        case .high: return "high"
        case .fips: return "fips"
        default: return "level \(rawValue)"
        }
    }
}

/// The type of the peer's LE address, as sockaddr_l2 carries it.
public enum BlueZPeerAddressType: UInt8, Sendable, Hashable, CustomStringConvertible {
    case lePublic = 1
    case leRandom = 2

    public var description: String { self == .lePublic ? "public" : "random" }
}
