import DFUBytes

/// HCI_Disconnect (Vol 4, Part E, 7.1.6). Answered by Command Status; then Disconnection
/// Complete.
public struct DisconnectCommand: HCICommand {
    public static let opcode = HCIOpcode(ogf: HCIOpcode.linkControl, ocf: 0x0006)
    public static let name = "Disconnect"
    public static let completion = HCICommandCompletion.commandStatus

    public var handle: UInt16
    /// Usually Remote User Terminated Connection (0x13).
    public var reason: HCIStatus

    public init(handle: UInt16, reason: HCIStatus = .remoteUserTerminated) {
        self.handle = handle
        self.reason = reason
    }

    public init(parameters: [UInt8]) throws(HCIDecodeError) {
        self = try decodeParameters(Self.name, parameters) { reader throws(ByteReaderError) in
            DisconnectCommand(handle: try reader.readUInt16(), reason: HCIStatus(rawValue: try reader.readByte()))
        }
    }

    public var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 3)
        writer.appendUInt16(handle)
        writer.append(byte: reason.rawValue)
        return writer.bytes
    }
}
