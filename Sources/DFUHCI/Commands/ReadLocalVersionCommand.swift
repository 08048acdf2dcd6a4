import DFUBytes

/// HCI_Read_Local_Version_Information (Vol 4, Part E, 7.4.1).
package struct ReadLocalVersionCommand: HCIParameterlessCommand {
    package static let opcode = HCIOpcode(ogf: HCIOpcode.informational, ocf: 0x0001)
    package static let name = "Read Local Version Information"
    package init() {}

    package struct ReturnParameters: Sendable, Hashable {
        /// HCI_Version (Assigned Numbers: 0x09 = 5.0, 0x0D = 5.4).
        package var hciVersion: UInt8
        package var hciSubversion: UInt16
        package var lmpVersion: UInt8
        /// Company_Identifier (0xFFFF: none, e.g. Bumble's virtual controller).
        package var companyIdentifier: UInt16
        package var lmpSubversion: UInt16

        package init(hciVersion: UInt8, hciSubversion: UInt16, lmpVersion: UInt8,
                    companyIdentifier: UInt16, lmpSubversion: UInt16) {
            self.hciVersion = hciVersion
            self.hciSubversion = hciSubversion
            self.lmpVersion = lmpVersion
            self.companyIdentifier = companyIdentifier
            self.lmpSubversion = lmpSubversion
        }

        /// Decodes the return parameters after the status byte.
        package init(returnParameters bytes: [UInt8]) throws(HCIDecodeError) {
            self = try decodeParameters("\(name) return parameters", bytes) { reader throws(ByteReaderError) in
                ReturnParameters(hciVersion: try reader.readByte(), hciSubversion: try reader.readUInt16(),
                                 lmpVersion: try reader.readByte(), companyIdentifier: try reader.readUInt16(),
                                 lmpSubversion: try reader.readUInt16())
            }
        }

        package var encoded: [UInt8] {
            var writer = ByteWriter()
            writer.append(byte: hciVersion)
            writer.appendUInt16(hciSubversion)
            writer.append(byte: lmpVersion)
            writer.appendUInt16(companyIdentifier)
            writer.appendUInt16(lmpSubversion)
            return writer.bytes
        }
    }
}
