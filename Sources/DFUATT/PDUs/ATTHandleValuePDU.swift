/// The PDUs whose parameters are exactly an Attribute Handle followed by an Attribute
/// Value filling the rest of the PDU (write request and command, notification,
/// indication). They share one codec; each keeps its own type and opcode so a
/// notification can never be mistaken for a write.
package protocol ATTHandleValuePDU: ATTProtocolDataUnit {
    /// Attribute Handle: "the handle of the attribute".
    var attributeHandle: UInt16 { get }
    /// Attribute Value: at most ATT_MTU - 3 bytes.
    var attributeValue: [UInt8] { get }
    init(attributeHandle: UInt16, attributeValue: [UInt8])
}

extension ATTHandleValuePDU {
    package init(decoding bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTParameterReader(bytes, expecting: Self.opcode)
        let handle = try reader.uint16()
        self.init(attributeHandle: handle, attributeValue: reader.remaining())
    }

    package var bytes: [UInt8] {
        var writer = ATTParameterWriter(Self.opcode, capacity: 3 + attributeValue.count)
        writer.uint16(attributeHandle)
        writer.bytes(attributeValue)
        return writer.bytes
    }
}
