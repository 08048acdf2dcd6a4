/// A vendor control-point command opcode (profiles/vendor-ctrlpt.yaml); answers carry it with
/// the high bit set.
package enum VendorControlPointOpcode: UInt8, Sendable, CaseIterable {
    // In the profile's order.
    case status = 0x05, start = 0x01, data = 0x02, verify = 0x03, activate = 0x04, info = 0x06

    /// The profile's command name (and the name command faults use).
    package var name: String {
        switch self {
        case .start: return "start"
        case .data: return "data"
        case .verify: return "verify"
        case .activate: return "activate"
        case .status: return "status"
        case .info: return "info"
        }
    }
}

/// Status codes, as in the profile's `vendor-status` table. Open: any value prints.
package struct VendorControlPointStatus: RawRepresentable, Hashable, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    package static let ok = Self(rawValue: 0x00)
    package static let badLength = Self(rawValue: 0x01)
    package static let badState = Self(rawValue: 0x02)
    package static let tooLarge = Self(rawValue: 0x03)
    package static let badOffset = Self(rawValue: 0x04)
    package static let crcMismatch = Self(rawValue: 0x05)
    package static let shaMismatch = Self(rawValue: 0x06)
    package static let busy = Self(rawValue: 0x07)
    package static let unknownOpcode = Self(rawValue: 0x09)
}
