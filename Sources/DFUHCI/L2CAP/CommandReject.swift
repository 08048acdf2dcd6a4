import DFUBytes

/// L2CAP_COMMAND_REJECT_RSP (Vol 3, Part A, 4.1): the answer to a signaling command the
/// receiver does not understand.
public struct CommandReject: Sendable, Hashable {
    public static let commandNotUnderstood: UInt16 = 0x0000
    public static let signalingMTUExceeded: UInt16 = 0x0001
    public static let invalidCIDInRequest: UInt16 = 0x0002

    public var reason: UInt16
    /// Reason-specific data (empty for "command not understood").
    public var reasonData: [UInt8]

    public init(reason: UInt16, reasonData: [UInt8] = []) {
        self.reason = reason
        self.reasonData = reasonData
    }

    public init(data: [UInt8]) throws(HCIDecodeError) {
        self = try decodeParameters("Command Reject", data) { reader throws(ByteReaderError) in
            CommandReject(reason: try reader.readUInt16(), reasonData: reader.readRemaining())
        }
    }

    public var data: [UInt8] { [UInt8(reason & 0xFF), UInt8(reason >> 8)] + reasonData }
}
