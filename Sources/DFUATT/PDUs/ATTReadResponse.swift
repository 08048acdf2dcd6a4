/// ATT_READ_RSP (Core spec Vol 3, Part F, 3.4.4.4): "sent in reply to a received ATT_READ_REQ
/// PDU and contains the value of the attribute that has been read".
public struct ATTReadResponse: ATTProtocolDataUnit {
    public static let opcode = ATTOpcode.readResponse

    /// Attribute Value: "the value of the attribute with the handle given" (at most
    /// ATT_MTU - 1 bytes; longer values are read on with Read Blob Requests).
    public var attributeValue: [UInt8]

    public init(attributeValue: [UInt8]) { self.attributeValue = attributeValue }

    public init(decoding bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTParameterReader(bytes, expecting: Self.opcode)
        attributeValue = reader.remaining()
    }

    public var bytes: [UInt8] {
        var writer = ATTParameterWriter(Self.opcode, capacity: 1 + attributeValue.count)
        writer.bytes(attributeValue)
        return writer.bytes
    }
}
