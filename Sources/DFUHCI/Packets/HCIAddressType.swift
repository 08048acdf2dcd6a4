/// The type of a device address in HCI LE commands and events (Core spec Vol 4, Part E, 7.8.5).
public struct HCIAddressType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code as HCI carries it (one octet), including codes this type has no name for.
    public let rawValue: UInt8
    /// Any code, named or not (an unknown one prints as `address type 0xNN`).
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x00: a public device address (an IEEE-assigned identity).
    public static let publicDevice = HCIAddressType(rawValue: 0x00)
    /// 0x01: a random device address (static, or resolvable/non-resolvable private).
    public static let randomDevice = HCIAddressType(rawValue: 0x01)
    /// A resolved resolvable private address whose identity is public.
    public static let publicIdentity = HCIAddressType(rawValue: 0x02)
    /// A resolved resolvable private address whose identity is random static.
    public static let randomIdentity = HCIAddressType(rawValue: 0x03)

    /// `public`, `random`, `public identity`, `random identity`, else `address type 0xNN`.
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
