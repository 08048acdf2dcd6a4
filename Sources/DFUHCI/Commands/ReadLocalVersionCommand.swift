import DFUBytes

/// HCI_Read_Local_Version_Information (Vol 4, Part E, 7.4.1).
public struct ReadLocalVersionCommand: HCIParameterlessCommand {
    public static let opcode = HCIOpcode(ogf: HCIOpcode.informational, ocf: 0x0001)
    public static let name = "Read Local Version Information"
    public init() {}

    public struct ReturnParameters: Sendable, Hashable {
        /// HCI_Version (Assigned Numbers: 0x09 = 5.0, 0x0D = 5.4).
        public var hciVersion: UInt8
        public var hciSubversion: UInt16
        public var lmpVersion: UInt8
        /// Company_Identifier (0xFFFF: none, e.g. Bumble's virtual controller).
        public var companyIdentifier: UInt16
        public var lmpSubversion: UInt16

        public init(hciVersion: UInt8, hciSubversion: UInt16, lmpVersion: UInt8,
                    companyIdentifier: UInt16, lmpSubversion: UInt16) {
            self.hciVersion = hciVersion
            self.hciSubversion = hciSubversion
            self.lmpVersion = lmpVersion
            self.companyIdentifier = companyIdentifier
            self.lmpSubversion = lmpSubversion
        }

        /// Decodes the return parameters after the status byte.
        public init(returnParameters bytes: [UInt8]) throws(HCIDecodeError) {
            self = try decodeParameters("\(name) return parameters", bytes) { reader throws(ByteReaderError) in
                ReturnParameters(hciVersion: try reader.readByte(), hciSubversion: try reader.readUInt16(),
                                 lmpVersion: try reader.readByte(), companyIdentifier: try reader.readUInt16(),
                                 lmpSubversion: try reader.readUInt16())
            }
        }

        public var encoded: [UInt8] {
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
