import DFUBytes

/// HCI_Read_Buffer_Size (Vol 4, Part E, 7.4.5): the controller's shared ACL buffers, used for LE
/// too when LE_Read_Buffer_Size reports a length of zero.
public struct ReadBufferSizeCommand: HCIParameterlessCommand {
    public static let opcode = HCIOpcode(ogf: HCIOpcode.informational, ocf: 0x0005)
    public static let name = "Read Buffer Size"
    public init() {}

    public struct ReturnParameters: Sendable, Hashable {
        public var aclDataPacketLength: UInt16
        public var synchronousDataPacketLength: UInt8
        public var totalACLDataPackets: UInt16
        public var totalSynchronousDataPackets: UInt16

        public init(aclDataPacketLength: UInt16, synchronousDataPacketLength: UInt8,
                    totalACLDataPackets: UInt16, totalSynchronousDataPackets: UInt16) {
            self.aclDataPacketLength = aclDataPacketLength
            self.synchronousDataPacketLength = synchronousDataPacketLength
            self.totalACLDataPackets = totalACLDataPackets
            self.totalSynchronousDataPackets = totalSynchronousDataPackets
        }

        public init(returnParameters bytes: [UInt8]) throws(HCIDecodeError) {
            self = try decodeParameters("\(name) return parameters", bytes) { reader throws(ByteReaderError) in
                ReturnParameters(aclDataPacketLength: try reader.readUInt16(),
                                 synchronousDataPacketLength: try reader.readByte(),
                                 totalACLDataPackets: try reader.readUInt16(),
                                 totalSynchronousDataPackets: try reader.readUInt16())
            }
        }

        public var encoded: [UInt8] {
            var writer = ByteWriter()
            writer.appendUInt16(aclDataPacketLength)
            writer.append(byte: synchronousDataPacketLength)
            writer.appendUInt16(totalACLDataPackets)
            writer.appendUInt16(totalSynchronousDataPackets)
            return writer.bytes
        }
    }
}
