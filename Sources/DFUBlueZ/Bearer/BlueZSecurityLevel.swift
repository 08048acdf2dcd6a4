/// BT_SECURITY levels (<bluetooth/bluetooth.h>): what the kernel requires of the link before
/// ATT traffic flows. `medium` and above encrypt the link (pairing if needed).
public struct BlueZSecurityLevel: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The BT_SECURITY_* value.
    public let rawValue: UInt8
    /// The level with this BT_SECURITY_* value.
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
    /// A public device address (BDADDR_LE_PUBLIC).
    case lePublic = 1
    /// A random device address (BDADDR_LE_RANDOM).
    case leRandom = 2

    public var description: String { self == .lePublic ? "public" : "random" }
}
