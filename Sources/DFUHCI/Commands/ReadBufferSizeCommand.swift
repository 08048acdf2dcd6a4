import DFUBytes

/// HCI_Read_Buffer_Size (Vol 4, Part E, 7.4.5): the controller's shared ACL buffers, used for LE
/// too when LE_Read_Buffer_Size reports a length of zero.
package struct ReadBufferSizeCommand: HCIParameterlessCommand {
    package static let opcode = HCIOpcode(ogf: HCIOpcode.informational, ocf: 0x0005)
    package static let name = "Read Buffer Size"
    package init() {}

    package struct ReturnParameters: Sendable, Hashable {
        package var aclDataPacketLength: UInt16
        package var synchronousDataPacketLength: UInt8
        package var totalACLDataPackets: UInt16
        package var totalSynchronousDataPackets: UInt16

        package init(aclDataPacketLength: UInt16, synchronousDataPacketLength: UInt8,
                    totalACLDataPackets: UInt16, totalSynchronousDataPackets: UInt16) {
            self.aclDataPacketLength = aclDataPacketLength
            self.synchronousDataPacketLength = synchronousDataPacketLength
            self.totalACLDataPackets = totalACLDataPackets
            self.totalSynchronousDataPackets = totalSynchronousDataPackets
        }

        package init(returnParameters bytes: [UInt8]) throws(HCIDecodeError) {
            self = try decodeParameters("\(name) return parameters", bytes) { reader throws(ByteReaderError) in
                ReturnParameters(aclDataPacketLength: try reader.readUInt16(),
                                 synchronousDataPacketLength: try reader.readByte(),
                                 totalACLDataPackets: try reader.readUInt16(),
                                 totalSynchronousDataPackets: try reader.readUInt16())
            }
        }

        package var encoded: [UInt8] {
            var writer = ByteWriter()
            writer.appendUInt16(aclDataPacketLength)
            writer.append(byte: synchronousDataPacketLength)
            writer.appendUInt16(totalACLDataPackets)
            writer.appendUInt16(totalSynchronousDataPackets)
            return writer.bytes
        }
    }
}
