/// A fixed L2CAP channel on an LE-U link (Core spec Vol 3, Part A, 2.1).
public struct L2CAPChannelID: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Attribute protocol.
    public static let att = L2CAPChannelID(rawValue: 0x0004)
    /// LE signaling channel.
    public static let leSignaling = L2CAPChannelID(rawValue: 0x0005)
    /// Security Manager protocol.
    public static let securityManager = L2CAPChannelID(rawValue: 0x0006)

    public var description: String {
        switch self {
        case .att: return "ATT"
        case .leSignaling: return "LE signaling"
        case .securityManager: return "SMP"
        default: return "CID 0x" + hexWord(rawValue)
        }
    }
}
