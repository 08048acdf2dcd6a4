/// A command opcode: 6-bit OGF (group) and 10-bit OCF (command), sent little-endian
/// (Core spec Vol 4, Part E, 5.4.1).
package struct HCIOpcode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    package init(ogf: UInt8, ocf: UInt16) {
        precondition(ogf < 0x40 && ocf < 0x400, "OGF has 6 bits, OCF 10")
        rawValue = UInt16(ogf) << 10 | ocf
    }

    /// Opcode Group Field.
    package var ogf: UInt8 { UInt8(rawValue >> 10) }
    /// Opcode Command Field.
    package var ocf: UInt16 { rawValue & 0x03FF }

    /// Link Control commands.
    package static let linkControl: UInt8 = 0x01
    /// Controller & Baseband commands.
    package static let controllerBaseband: UInt8 = 0x03
    /// Informational parameters.
    package static let informational: UInt8 = 0x04
    /// LE Controller commands.
    package static let leController: UInt8 = 0x08

    /// "0x2032".
    package var description: String { "0x" + hexWord(rawValue) }
}
