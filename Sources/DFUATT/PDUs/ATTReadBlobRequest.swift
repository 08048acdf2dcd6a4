/// ATT_READ_BLOB_REQ (Core spec Vol 3, Part F, 3.4.4.5): "used to request the server to read
/// part of the value of an attribute at a given offset".
package struct ATTReadBlobRequest: ATTRequestPDU {
    package typealias Response = ATTReadBlobResponse
    package static let opcode = ATTOpcode.readBlobRequest

    /// Attribute Handle: "the handle of the attribute to be read".
    package var attributeHandle: UInt16
    /// Value Offset: "the offset of the first octet to be read".
    package var valueOffset: UInt16

    package init(attributeHandle: UInt16, valueOffset: UInt16) {
        self.attributeHandle = attributeHandle
        self.valueOffset = valueOffset
    }

    package init(decoding bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTParameterReader(bytes, expecting: Self.opcode)
        attributeHandle = try reader.uint16()
        valueOffset = try reader.uint16()
        try reader.finish()
    }

    package var bytes: [UInt8] {
        var writer = ATTParameterWriter(Self.opcode)
        writer.uint16(attributeHandle)
        writer.uint16(valueOffset)
        return writer.bytes
    }
}
