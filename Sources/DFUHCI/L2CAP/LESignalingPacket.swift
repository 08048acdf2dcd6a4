import DFUBytes

/// One command on the LE signaling channel (Core spec Vol 3, Part A, 4): code, identifier,
/// length, data. On LE a C-frame carries exactly one command.
public struct LESignalingPacket: Sendable, Hashable {
    public struct Code: RawRepresentable, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let commandReject = Code(rawValue: 0x01)
        public static let disconnectionRequest = Code(rawValue: 0x06)
        public static let connectionParameterUpdateRequest = Code(rawValue: 0x12)
        public static let connectionParameterUpdateResponse = Code(rawValue: 0x13)
        public static let leCreditBasedConnectionRequest = Code(rawValue: 0x14)

        /// Responses have codes this host never answers (Command Reject and the *Response codes).
        public var isResponse: Bool {
            self == .commandReject || self == .connectionParameterUpdateResponse || rawValue == 0x15
        }
    }

    public var code: Code
    /// Matches a response to its request; 0 is not allowed in requests.
    public var identifier: UInt8
    public var data: [UInt8]

    public init(code: Code, identifier: UInt8, data: [UInt8]) {
        self.code = code
        self.identifier = identifier
        self.data = data
    }

    public init(bytes: [UInt8]) throws(HCIDecodeError) {
        self = try decodeParameters("LE signaling command", bytes) { reader throws(ByteReaderError) in
            let code = Code(rawValue: try reader.readByte())
            let identifier = try reader.readByte()
            let length = Int(try reader.readUInt16())
            return LESignalingPacket(code: code, identifier: identifier, data: try reader.readBytes(count: length))
        }
    }

    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 4 + data.count)
        writer.append(byte: code.rawValue)
        writer.append(byte: identifier)
        writer.appendUInt16(UInt16(data.count))
        writer.append(bytes: data)
        return writer.bytes
    }
}
