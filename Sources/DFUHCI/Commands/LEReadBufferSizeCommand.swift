import DFUBytes

/// HCI_LE_Read_Buffer_Size [v1] (Vol 4, Part E, 7.8.2): the size and number of the controller's
/// LE ACL buffers. A length of zero means LE shares the buffers of Read Buffer Size.
package struct LEReadBufferSizeCommand: HCIParameterlessCommand {
    package static let opcode = HCIOpcode(ogf: HCIOpcode.leController, ocf: 0x0002)
    package static let name = "LE Read Buffer Size"
    package init() {}

    package struct ReturnParameters: Sendable, Hashable {
        /// LE_ACL_Data_Packet_Length: the largest ACL payload the controller accepts.
        package var aclDataPacketLength: UInt16
        /// Total_Num_LE_ACL_Data_Packets: the host's initial credits.
        package var totalACLDataPackets: UInt8

        package init(aclDataPacketLength: UInt16, totalACLDataPackets: UInt8) {
            self.aclDataPacketLength = aclDataPacketLength
            self.totalACLDataPackets = totalACLDataPackets
        }

        package init(returnParameters bytes: [UInt8]) throws(HCIDecodeError) {
            self = try decodeParameters("\(name) return parameters", bytes) { reader throws(ByteReaderError) in
                ReturnParameters(aclDataPacketLength: try reader.readUInt16(),
                                 totalACLDataPackets: try reader.readByte())
            }
        }

        package var encoded: [UInt8] {
            var writer = ByteWriter()
            writer.appendUInt16(aclDataPacketLength)
            writer.append(byte: totalACLDataPackets)
            return writer.bytes
        }
    }
}
