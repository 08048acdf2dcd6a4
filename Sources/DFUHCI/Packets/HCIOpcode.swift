/// A command opcode: 6-bit OGF (group) and 10-bit OCF (command), sent little-endian
/// (Core spec Vol 4, Part E, 5.4.1).
public struct HCIOpcode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public init(ogf: UInt8, ocf: UInt16) {
        precondition(ogf < 0x40 && ocf < 0x400, "OGF has 6 bits, OCF 10")
        rawValue = UInt16(ogf) << 10 | ocf
    }

    /// Opcode Group Field.
    public var ogf: UInt8 { UInt8(rawValue >> 10) }
    /// Opcode Command Field.
    public var ocf: UInt16 { rawValue & 0x03FF }

    /// Link Control commands.
    public static let linkControl: UInt8 = 0x01
    /// Controller & Baseband commands.
    public static let controllerBaseband: UInt8 = 0x03
    /// Informational parameters.
    public static let informational: UInt8 = 0x04
    /// LE Controller commands.
    public static let leController: UInt8 = 0x08

    /// "0x2032".
    public var description: String { "0x" + hexWord(rawValue) }
}
