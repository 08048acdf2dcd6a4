/// ATT_READ_REQ (Core spec Vol 3, Part F, 3.4.4.3): "used to request the server to read the
/// value of an attribute and return its value in an ATT_READ_RSP PDU".
package struct ATTReadRequest: ATTRequestPDU {
    package typealias Response = ATTReadResponse
    package static let opcode = ATTOpcode.readRequest

    /// Attribute Handle: "the handle of the attribute to be read".
    package var attributeHandle: UInt16

    package init(attributeHandle: UInt16) { self.attributeHandle = attributeHandle }

    package init(decoding bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTParameterReader(bytes, expecting: Self.opcode)
        attributeHandle = try reader.uint16()
        try reader.finish()
    }

    package var bytes: [UInt8] {
        var writer = ATTParameterWriter(Self.opcode)
        writer.uint16(attributeHandle)
        return writer.bytes
    }
}
