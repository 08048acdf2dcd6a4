import DFUBytes

/// HCI_LE_Set_Event_Mask (Vol 4, Part E, 7.8.1): which LE Meta subevents the controller may send.
package struct LESetEventMaskCommand: HCICommand {
    package static let opcode = HCIOpcode(ogf: HCIOpcode.leController, ocf: 0x0001)
    package static let name = "LE Set Event Mask"

    /// Bit n enables the subevent with code n + 1.
    package var mask: UInt64

    package init(mask: UInt64) { self.mask = mask }

    /// Connection Complete (bit 0), Advertising Report (1), Connection Update Complete (2),
    /// Read Remote Features Complete (3), Data Length Change (6), Enhanced Connection Complete
    /// (9), PHY Update Complete (11), Extended Advertising Report (12).
    package static let leCentral = LESetEventMaskCommand(
        mask: 1 << 0 | 1 << 1 | 1 << 2 | 1 << 3 | 1 << 6 | 1 << 9 | 1 << 11 | 1 << 12)

    package init(parameters: [UInt8]) throws(HCIDecodeError) {
        mask = try decodeParameters(Self.name, parameters) { reader throws(ByteReaderError) in
            try reader.readUnsigned(width: 8, endianness: .little)
        }
    }

    package var parameters: [UInt8] {
        var writer = ByteWriter()
        writer.append(mask, endianness: .little)
        return writer.bytes
    }
}
