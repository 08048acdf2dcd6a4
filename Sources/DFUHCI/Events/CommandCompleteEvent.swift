import DFUBytes

/// Command Complete (0x0E, Vol 4, Part E, 7.7.14): the answer to most commands.
package struct CommandCompleteEvent: HCIEventParameters {
    package static let code: UInt8 = 0x0E
    package static let name = "Command Complete"

    /// Num_HCI_Command_Packets: commands the controller accepts now.
    package var allowedCommandPackets: UInt8
    package var opcode: HCIOpcode
    /// Return parameters, starting with the status byte for every command this host sends
    /// (empty for the NOP opcode 0x0000).
    package var returnParameters: [UInt8]

    package init(allowedCommandPackets: UInt8 = 1, opcode: HCIOpcode, returnParameters: [UInt8]) {
        self.allowedCommandPackets = allowedCommandPackets
        self.opcode = opcode
        self.returnParameters = returnParameters
    }

    /// A Command Complete with `status` followed by `rest`.
    package init(opcode: HCIOpcode, status: HCIStatus, rest: [UInt8] = []) {
        self.init(opcode: opcode, returnParameters: [status.rawValue] + rest)
    }

    package init(parameters: [UInt8]) throws(HCIDecodeError) {
        self = try decodeParameters(Self.name, parameters) { reader throws(ByteReaderError) in
            CommandCompleteEvent(allowedCommandPackets: try reader.readByte(),
                                 opcode: HCIOpcode(rawValue: try reader.readUInt16()),
                                 returnParameters: reader.readRemaining())
        }
    }

    package var parameters: [UInt8] {
        var writer = ByteWriter()
        writer.append(byte: allowedCommandPackets)
        writer.appendUInt16(opcode.rawValue)
        writer.append(bytes: returnParameters)
        return writer.bytes
    }

    /// The first return parameter, when there is one.
    package var status: HCIStatus? { returnParameters.first.map(HCIStatus.init(rawValue:)) }

    /// Return parameters after the status byte.
    package var parametersAfterStatus: [UInt8] { Array(returnParameters.dropFirst()) }
}
