/// A fixed L2CAP channel on an LE-U link (Core spec Vol 3, Part A, 2.1).
package struct L2CAPChannelID: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Attribute protocol.
    package static let att = L2CAPChannelID(rawValue: 0x0004)
    /// LE signaling channel.
    package static let leSignaling = L2CAPChannelID(rawValue: 0x0005)
    /// Security Manager protocol.
    package static let securityManager = L2CAPChannelID(rawValue: 0x0006)

    package var description: String {
        switch self {
        case .att: return "ATT"
        case .leSignaling: return "LE signaling"
        case .securityManager: return "SMP"
        default: return "CID 0x" + hexWord(rawValue)
        }
    }
}
