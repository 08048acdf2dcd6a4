/// The one-byte packet indicator that precedes every packet on an H4 (UART-style) transport
/// (Core spec Vol 4, Part A, 2).
package struct HCIPacketType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// HCI Command packet, host to controller.
    package static let command = HCIPacketType(rawValue: 0x01)
    /// HCI ACL Data packet, both directions.
    package static let acl = HCIPacketType(rawValue: 0x02)
    /// HCI Synchronous Data packet (SCO; unused on LE).
    package static let synchronous = HCIPacketType(rawValue: 0x03)
    /// HCI Event packet, controller to host.
    package static let event = HCIPacketType(rawValue: 0x04)
    /// HCI ISO Data packet (unused here).
    package static let iso = HCIPacketType(rawValue: 0x05)

    package var description: String {
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
