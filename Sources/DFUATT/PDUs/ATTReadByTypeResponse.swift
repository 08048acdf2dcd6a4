/// ATT_READ_BY_TYPE_RSP (Core spec Vol 3, Part F, 3.4.4.2): "sent in reply to a received
/// ATT_READ_BY_TYPE_REQ PDU and contains the handles and values of the attributes that have
/// been read".
package struct ATTReadByTypeResponse: ATTProtocolDataUnit {
    package static let opcode = ATTOpcode.readByTypeResponse

    /// One element of the Attribute Data List: "Attribute Handle" and "Attribute Value".
    package struct AttributeData: Sendable, Hashable {
        package var attributeHandle: UInt16
        package var attributeValue: [UInt8]

        package init(attributeHandle: UInt16, attributeValue: [UInt8]) {
            self.attributeHandle = attributeHandle
            self.attributeValue = attributeValue
        }
    }

    /// Length: "the size of each attribute handle-value pair" (2 + the value's length).
    package let length: UInt8
    /// Attribute Data List: "a list of Attribute Data"; every value has the same length.
    package let attributeDataList: [AttributeData]

    /// Every value must have the same length, at most 253 bytes: anything else cannot be
    /// encoded and is a programming error.
    package init(attributeDataList: [AttributeData]) {
        let valueLength = attributeDataList.first?.attributeValue.count ?? 0
        precondition(attributeDataList.allSatisfy { $0.attributeValue.count == valueLength },
                     "ATTReadByTypeResponse: every attribute value must have the same length")
        precondition(valueLength <= 253, "ATTReadByTypeResponse: a value longer than 253 bytes cannot be encoded")
        self.length = UInt8(2 + valueLength)
        self.attributeDataList = attributeDataList
    }

    package init(decoding bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTParameterReader(bytes, expecting: Self.opcode)
        length = try reader.byte()
        guard length >= 2 else { throw .invalidElementLength(Self.opcode, length: length, minimum: 2) }
        let valueLength = Int(length) - 2
        attributeDataList = try reader.list(elementLength: Int(length)) { reader throws(ATTDecodingError) in
            let handle = try reader.uint16()
            return AttributeData(attributeHandle: handle, attributeValue: try reader.bytes(count: valueLength))
        }
    }

    package var bytes: [UInt8] {
        var writer = ATTParameterWriter(Self.opcode, capacity: 2 + attributeDataList.count * Int(length))
        writer.byte(length)
        for element in attributeDataList {
            writer.uint16(element.attributeHandle)
            writer.bytes(element.attributeValue)
        }
        return writer.bytes
    }
}
