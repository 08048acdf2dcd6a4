/// ATT_WRITE_REQ (Core spec Vol 3, Part F, 3.4.5.1): "used to request the server to
/// write the value of an attribute and acknowledge that this has been achieved in an
/// ATT_WRITE_RSP PDU".
public struct ATTWriteRequest: ATTRequestPDU {
    public typealias Response = ATTWriteResponse
    public static let opcode = ATTOpcode.writeRequest

    /// Attribute Handle: "the handle of the attribute".
    public var attributeHandle: UInt16
    /// Attribute Value: "the value to be written to the attribute" (at most ATT_MTU - 3
    /// bytes).
    public var attributeValue: [UInt8]

    public init(attributeHandle: UInt16, attributeValue: [UInt8]) {
        self.attributeHandle = attributeHandle
        self.attributeValue = attributeValue
    }

    public init(decoding bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTParameterReader(bytes, expecting: Self.opcode)
        attributeHandle = try reader.uint16()
        attributeValue = reader.remaining()
    }

    public var bytes: [UInt8] {
        var writer = ATTParameterWriter(Self.opcode, capacity: 3 + attributeValue.count)
        writer.uint16(attributeHandle)
        writer.bytes(attributeValue)
        return writer.bytes
    }
}
