import DFUBytes

/// HCI_Set_Event_Mask (Vol 4, Part E, 7.3.1): which (non-LE) events the controller may send.
package struct SetEventMaskCommand: HCICommand {
    package static let opcode = HCIOpcode(ogf: HCIOpcode.controllerBaseband, ocf: 0x0001)
    package static let name = "Set Event Mask"

    /// Bit n enables the event with code n + 1.
    package var mask: UInt64

    package init(mask: UInt64) { self.mask = mask }

    /// What an LE central needs: Disconnection Complete (bit 4), Encryption Change (7),
    /// Read Remote Version Information Complete (11), Hardware Error (15), Data Buffer Overflow
    /// (25), Encryption Key Refresh Complete (47) and LE Meta (61).
    package static let leCentral = SetEventMaskCommand(
        mask: 1 << 4 | 1 << 7 | 1 << 11 | 1 << 15 | 1 << 25 | 1 << 47 | 1 << 61)

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
