/// ATT_READ_BLOB_RSP (Core spec Vol 3, Part F, 3.4.4.6): "sent in reply to a received
/// ATT_READ_BLOB_REQ PDU and contains part of the value of the attribute that has been read".
package struct ATTReadBlobResponse: ATTProtocolDataUnit {
    package static let opcode = ATTOpcode.readBlobResponse

    /// Part Attribute Value: "part of the value of the attribute with the handle given".
    package var partAttributeValue: [UInt8]

    package init(partAttributeValue: [UInt8]) { self.partAttributeValue = partAttributeValue }

    package init(decoding bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTParameterReader(bytes, expecting: Self.opcode)
        partAttributeValue = reader.remaining()
    }

    package var bytes: [UInt8] {
        var writer = ATTParameterWriter(Self.opcode, capacity: 1 + partAttributeValue.count)
        writer.bytes(partAttributeValue)
        return writer.bytes
    }
}
