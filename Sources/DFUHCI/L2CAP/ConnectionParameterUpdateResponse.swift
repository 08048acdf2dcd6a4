import DFUBytes

/// L2CAP_CONNECTION_PARAMETER_UPDATE_RSP (Vol 3, Part A, 4.21).
package struct ConnectionParameterUpdateResponse: Sendable, Hashable {
    package static let accepted: UInt16 = 0x0000
    package static let rejected: UInt16 = 0x0001

    package var result: UInt16

    package init(result: UInt16) { self.result = result }

    package init(data: [UInt8]) throws(HCIDecodeError) {
        result = try decodeParameters("Connection Parameter Update Response", data) { reader throws(ByteReaderError) in
            try reader.readUInt16()
        }
    }

    package var data: [UInt8] { [UInt8(result & 0xFF), UInt8(result >> 8)] }
}
