import DFUBytes

/// L2CAP_CONNECTION_PARAMETER_UPDATE_RSP (Vol 3, Part A, 4.21).
public struct ConnectionParameterUpdateResponse: Sendable, Hashable {
    public static let accepted: UInt16 = 0x0000
    public static let rejected: UInt16 = 0x0001

    public var result: UInt16

    public init(result: UInt16) { self.result = result }

    public init(data: [UInt8]) throws(HCIDecodeError) {
        result = try decodeParameters("Connection Parameter Update Response", data) { reader throws(ByteReaderError) in
            try reader.readUInt16()
        }
    }

    public var data: [UInt8] { [UInt8(result & 0xFF), UInt8(result >> 8)] }
}
