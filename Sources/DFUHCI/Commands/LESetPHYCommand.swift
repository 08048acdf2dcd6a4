import DFUBytes

/// HCI_LE_Set_PHY (Vol 4, Part E, 7.8.49). Answered by Command Status; the outcome is an LE PHY
/// Update Complete event. Bumble's virtual controller never answers it: treat it as optional.
package struct LESetPHYCommand: HCICommand {
    package static let opcode = HCIOpcode(ogf: HCIOpcode.leController, ocf: 0x0032)
    package static let name = "LE Set PHY"
    package static let completion = HCICommandCompletion.commandStatus

    /// PHY bits: 1M (bit 0), 2M (bit 1), Coded (bit 2).
    package static let phy1M: UInt8 = 0x01
    package static let phy2M: UInt8 = 0x02
    package static let phyCoded: UInt8 = 0x04

    package var handle: UInt16
    /// ALL_PHYS: bit 0 "no TX preference", bit 1 "no RX preference".
    package var allPHYs: UInt8
    package var txPHYs: UInt8
    package var rxPHYs: UInt8
    package var phyOptions: UInt16

    package init(handle: UInt16, allPHYs: UInt8 = 0, txPHYs: UInt8 = phy2M, rxPHYs: UInt8 = phy2M, phyOptions: UInt16 = 0) {
        self.handle = handle
        self.allPHYs = allPHYs
        self.txPHYs = txPHYs
        self.rxPHYs = rxPHYs
        self.phyOptions = phyOptions
    }

    package init(parameters: [UInt8]) throws(HCIDecodeError) {
        self = try decodeParameters(Self.name, parameters) { reader throws(ByteReaderError) in
            LESetPHYCommand(handle: try reader.readUInt16(), allPHYs: try reader.readByte(),
                            txPHYs: try reader.readByte(), rxPHYs: try reader.readByte(),
                            phyOptions: try reader.readUInt16())
        }
    }

    package var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 7)
        writer.appendUInt16(handle)
        writer.append(byte: allPHYs)
        writer.append(byte: txPHYs)
        writer.append(byte: rxPHYs)
        writer.appendUInt16(phyOptions)
        return writer.bytes
    }
}
