import DFUBytes

/// Command Status (0x0F, Vol 4, Part E, 7.7.15): a command started (status 0) or was refused.
package struct CommandStatusEvent: HCIEventParameters {
    package static let code: UInt8 = 0x0F
    package static let name = "Command Status"

    package var status: HCIStatus
    package var allowedCommandPackets: UInt8
    package var opcode: HCIOpcode

    package init(status: HCIStatus, allowedCommandPackets: UInt8 = 1, opcode: HCIOpcode) {
        self.status = status
        self.allowedCommandPackets = allowedCommandPackets
        self.opcode = opcode
    }

    package init(parameters: [UInt8]) throws(HCIDecodeError) {
        self = try decodeParameters(Self.name, parameters) { reader throws(ByteReaderError) in
            CommandStatusEvent(status: HCIStatus(rawValue: try reader.readByte()),
                               allowedCommandPackets: try reader.readByte(),
                               opcode: HCIOpcode(rawValue: try reader.readUInt16()))
        }
    }

    package var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 4)
        writer.append(byte: status.rawValue)
        writer.append(byte: allowedCommandPackets)
        writer.appendUInt16(opcode.rawValue)
        return writer.bytes
    }
}
