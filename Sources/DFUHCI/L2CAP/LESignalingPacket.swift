import DFUBytes

/// One command on the LE signaling channel (Core spec Vol 3, Part A, 4): code, identifier,
/// length, data. On LE a C-frame carries exactly one command.
package struct LESignalingPacket: Sendable, Hashable {
    package struct Code: RawRepresentable, Sendable, Hashable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }
        package static let commandReject = Code(rawValue: 0x01)
        package static let disconnectionRequest = Code(rawValue: 0x06)
        package static let connectionParameterUpdateRequest = Code(rawValue: 0x12)
        package static let connectionParameterUpdateResponse = Code(rawValue: 0x13)
        package static let leCreditBasedConnectionRequest = Code(rawValue: 0x14)

        /// Responses have codes this host never answers (Command Reject and the *Response codes).
        package var isResponse: Bool {
            self == .commandReject || self == .connectionParameterUpdateResponse || rawValue == 0x15
        }
    }

    package var code: Code
    /// Matches a response to its request; 0 is not allowed in requests.
    package var identifier: UInt8
    package var data: [UInt8]

    package init(code: Code, identifier: UInt8, data: [UInt8]) {
        self.code = code
        self.identifier = identifier
        self.data = data
    }

    package init(bytes: [UInt8]) throws(HCIDecodeError) {
        self = try decodeParameters("LE signaling command", bytes) { reader throws(ByteReaderError) in
            let code = Code(rawValue: try reader.readByte())
            let identifier = try reader.readByte()
            let length = Int(try reader.readUInt16())
            return LESignalingPacket(code: code, identifier: identifier, data: try reader.readBytes(count: length))
        }
    }

    package var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 4 + data.count)
        writer.append(byte: code.rawValue)
        writer.append(byte: identifier)
        writer.appendUInt16(UInt16(data.count))
        writer.append(bytes: data)
        return writer.bytes
    }
}
