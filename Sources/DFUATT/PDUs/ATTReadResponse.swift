/// ATT_READ_RSP (Core spec Vol 3, Part F, 3.4.4.4): "sent in reply to a received ATT_READ_REQ
/// PDU and contains the value of the attribute that has been read".
package struct ATTReadResponse: ATTProtocolDataUnit {
    package static let opcode = ATTOpcode.readResponse

    /// Attribute Value: "the value of the attribute with the handle given" (at most
    /// ATT_MTU - 1 bytes; longer values are read on with Read Blob Requests).
    package var attributeValue: [UInt8]

    package init(attributeValue: [UInt8]) { self.attributeValue = attributeValue }

    package init(decoding bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTParameterReader(bytes, expecting: Self.opcode)
        attributeValue = reader.remaining()
    }

    package var bytes: [UInt8] {
        var writer = ATTParameterWriter(Self.opcode, capacity: 1 + attributeValue.count)
        writer.bytes(attributeValue)
        return writer.bytes
    }
}
