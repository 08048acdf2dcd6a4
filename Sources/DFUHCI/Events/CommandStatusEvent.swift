import DFUBytes

/// Command Status (0x0F, Vol 4, Part E, 7.7.15): a command started (status 0) or was refused.
public struct CommandStatusEvent: HCIEventParameters {
    public static let code: UInt8 = 0x0F
    public static let name = "Command Status"

    public var status: HCIStatus
    public var allowedCommandPackets: UInt8
    public var opcode: HCIOpcode

    public init(status: HCIStatus, allowedCommandPackets: UInt8 = 1, opcode: HCIOpcode) {
        self.status = status
        self.allowedCommandPackets = allowedCommandPackets
        self.opcode = opcode
    }

    public init(parameters: [UInt8]) throws(HCIDecodeError) {
        self = try decodeParameters(Self.name, parameters) { reader throws(ByteReaderError) in
            CommandStatusEvent(status: HCIStatus(rawValue: try reader.readByte()),
                               allowedCommandPackets: try reader.readByte(),
                               opcode: HCIOpcode(rawValue: try reader.readUInt16()))
        }
    }

    public var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 4)
        writer.append(byte: status.rawValue)
        writer.append(byte: allowedCommandPackets)
        writer.appendUInt16(opcode.rawValue)
        return writer.bytes
    }
}
