import DFUBytes

/// L2CAP_COMMAND_REJECT_RSP (Vol 3, Part A, 4.1): the answer to a signaling command the
/// receiver does not understand.
package struct CommandReject: Sendable, Hashable {
    package static let commandNotUnderstood: UInt16 = 0x0000
    package static let signalingMTUExceeded: UInt16 = 0x0001
    package static let invalidCIDInRequest: UInt16 = 0x0002

    package var reason: UInt16
    /// Reason-specific data (empty for "command not understood").
    package var reasonData: [UInt8]

    package init(reason: UInt16, reasonData: [UInt8] = []) {
        self.reason = reason
        self.reasonData = reasonData
    }

    package init(data: [UInt8]) throws(HCIDecodeError) {
        self = try decodeParameters("Command Reject", data) { reader throws(ByteReaderError) in
            CommandReject(reason: try reader.readUInt16(), reasonData: reader.readRemaining())
        }
    }

    package var data: [UInt8] { [UInt8(reason & 0xFF), UInt8(reason >> 8)] + reasonData }
}
