import DFUBytes

/// HCI_LE_Set_Scan_Parameters (Vol 4, Part E, 7.8.10). Intervals in units of 0.625 ms.
package struct LESetScanParametersCommand: HCICommand {
    package static let opcode = HCIOpcode(ogf: HCIOpcode.leController, ocf: 0x000B)
    package static let name = "LE Set Scan Parameters"

    /// Active scanning sends scan requests, so scan responses (often the name) arrive too.
    package var active: Bool
    package var interval: UInt16
    package var window: UInt16
    package var ownAddressType: HCIAddressType
    /// Scanning_Filter_Policy; 0 accepts every advertisement.
    package var filterPolicy: UInt8

    package init(active: Bool = true, interval: UInt16 = 0x0060, window: UInt16 = 0x0030,
                ownAddressType: HCIAddressType = .randomDevice, filterPolicy: UInt8 = 0) {
        self.active = active
        self.interval = interval
        self.window = window
        self.ownAddressType = ownAddressType
        self.filterPolicy = filterPolicy
    }

    package init(parameters: [UInt8]) throws(HCIDecodeError) {
        self = try decodeParameters(Self.name, parameters) { reader throws(ByteReaderError) in
            LESetScanParametersCommand(active: try reader.readByte() == 1, interval: try reader.readUInt16(),
                                       window: try reader.readUInt16(),
                                       ownAddressType: HCIAddressType(rawValue: try reader.readByte()),
                                       filterPolicy: try reader.readByte())
        }
    }

    package var parameters: [UInt8] {
        var writer = ByteWriter()
        writer.append(byte: active ? 0x01 : 0x00)
        writer.appendUInt16(interval)
        writer.appendUInt16(window)
        writer.append(byte: ownAddressType.rawValue)
        writer.append(byte: filterPolicy)
        return writer.bytes
    }
}
