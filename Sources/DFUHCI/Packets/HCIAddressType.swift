/// The type of a device address in HCI LE commands and events (Core spec Vol 4, Part E, 7.8.5).
public struct HCIAddressType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let publicDevice = HCIAddressType(rawValue: 0x00)
    public static let randomDevice = HCIAddressType(rawValue: 0x01)
    /// A resolved resolvable private address whose identity is public.
    public static let publicIdentity = HCIAddressType(rawValue: 0x02)
    /// A resolved resolvable private address whose identity is random static.
    public static let randomIdentity = HCIAddressType(rawValue: 0x03)

    public var description: String {
        switch self {
        case .publicDevice: return "public"
        case .randomDevice: return "random"
        case .publicIdentity: return "public identity"
        case .randomIdentity: return "random identity"
        default: return "address type 0x" + hexByte(rawValue)
        }
    }
}
