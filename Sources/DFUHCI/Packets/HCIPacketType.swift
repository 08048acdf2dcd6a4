/// The one-byte packet indicator that precedes every packet on an H4 (UART-style) transport
/// (Core spec Vol 4, Part A, 2).
public struct HCIPacketType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// HCI Command packet, host to controller.
    public static let command = HCIPacketType(rawValue: 0x01)
    /// HCI ACL Data packet, both directions.
    public static let acl = HCIPacketType(rawValue: 0x02)
    /// HCI Synchronous Data packet (SCO; unused on LE).
    public static let synchronous = HCIPacketType(rawValue: 0x03)
    /// HCI Event packet, controller to host.
    public static let event = HCIPacketType(rawValue: 0x04)
    /// HCI ISO Data packet (unused here).
    public static let iso = HCIPacketType(rawValue: 0x05)

    public var description: String {
        switch self {
        case .command: return "command"
        case .acl: return "ACL"
        case .synchronous: return "SCO"
        case .event: return "event"
        case .iso: return "ISO"
        default: return "type 0x" + hexByte(rawValue)
        }
    }
}
