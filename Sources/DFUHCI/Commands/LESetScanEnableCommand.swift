import DFUBytes

/// HCI_LE_Set_Scan_Enable (Vol 4, Part E, 7.8.11).
package struct LESetScanEnableCommand: HCICommand {
    package static let opcode = HCIOpcode(ogf: HCIOpcode.leController, ocf: 0x000C)
    package static let name = "LE Set Scan Enable"

    package var enable: Bool
    /// Filter_Duplicates: off, so that every report (and the latest RSSI) arrives.
    package var filterDuplicates: Bool

    package init(enable: Bool, filterDuplicates: Bool = false) {
        self.enable = enable
        self.filterDuplicates = filterDuplicates
    }

    package init(parameters: [UInt8]) throws(HCIDecodeError) {
        self = try decodeParameters(Self.name, parameters) { reader throws(ByteReaderError) in
            LESetScanEnableCommand(enable: try reader.readByte() == 1, filterDuplicates: try reader.readByte() == 1)
        }
    }

    package var parameters: [UInt8] { [enable ? 1 : 0, filterDuplicates ? 1 : 0] }
}
