import DFUBytes

/// HCI_LE_Set_Data_Length (Vol 4, Part E, 7.8.33): asks for longer link-layer payloads. Returns
/// Status and Connection_Handle; an LE Data Length Change event follows if the lengths change.
package struct LESetDataLengthCommand: HCICommand {
    package static let opcode = HCIOpcode(ogf: HCIOpcode.leController, ocf: 0x0022)
    package static let name = "LE Set Data Length"

    package var handle: UInt16
    /// TX_Octets, 27...251.
    package var txOctets: UInt16
    /// TX_Time in microseconds, 328...17040 (2120 fits 251 octets on the 1M PHY).
    package var txTime: UInt16

    package init(handle: UInt16, txOctets: UInt16 = 251, txTime: UInt16 = 2120) {
        self.handle = handle
        self.txOctets = txOctets
        self.txTime = txTime
    }

    package init(parameters: [UInt8]) throws(HCIDecodeError) {
        self = try decodeParameters(Self.name, parameters) { reader throws(ByteReaderError) in
            LESetDataLengthCommand(handle: try reader.readUInt16(), txOctets: try reader.readUInt16(),
                                   txTime: try reader.readUInt16())
        }
    }

    package var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 6)
        writer.appendUInt16(handle)
        writer.appendUInt16(txOctets)
        writer.appendUInt16(txTime)
        return writer.bytes
    }
}
