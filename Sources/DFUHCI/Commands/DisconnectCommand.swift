import DFUBytes

/// HCI_Disconnect (Vol 4, Part E, 7.1.6). Answered by Command Status; then Disconnection
/// Complete.
package struct DisconnectCommand: HCICommand {
    package static let opcode = HCIOpcode(ogf: HCIOpcode.linkControl, ocf: 0x0006)
    package static let name = "Disconnect"
    package static let completion = HCICommandCompletion.commandStatus

    package var handle: UInt16
    /// Usually Remote User Terminated Connection (0x13).
    package var reason: HCIStatus

    package init(handle: UInt16, reason: HCIStatus = .remoteUserTerminated) {
        self.handle = handle
        self.reason = reason
    }

    package init(parameters: [UInt8]) throws(HCIDecodeError) {
        self = try decodeParameters(Self.name, parameters) { reader throws(ByteReaderError) in
            DisconnectCommand(handle: try reader.readUInt16(), reason: HCIStatus(rawValue: try reader.readByte()))
        }
    }

    package var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 3)
        writer.appendUInt16(handle)
        writer.append(byte: reason.rawValue)
        return writer.bytes
    }
}
