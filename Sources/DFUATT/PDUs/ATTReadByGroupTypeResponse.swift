/// ATT_READ_BY_GROUP_TYPE_RSP (Core spec Vol 3, Part F, 3.4.4.10): "sent in reply to a
/// received ATT_READ_BY_GROUP_TYPE_REQ PDU and contains the handles and values of the
/// attributes that have been read".
package struct ATTReadByGroupTypeResponse: ATTProtocolDataUnit {
    package static let opcode = ATTOpcode.readByGroupTypeResponse

    /// One element of the Attribute Data List: "Attribute Handle", "End Group Handle" and
    /// "Attribute Value".
    package struct AttributeData: Sendable, Hashable {
        package var attributeHandle: UInt16
        package var endGroupHandle: UInt16
        package var attributeValue: [UInt8]

        package init(attributeHandle: UInt16, endGroupHandle: UInt16, attributeValue: [UInt8]) {
            self.attributeHandle = attributeHandle
            self.endGroupHandle = endGroupHandle
            self.attributeValue = attributeValue
        }
    }

    /// Length: "the size of each attribute data" (4 + the value's length).
    package let length: UInt8
    /// Attribute Data List: "a list of Attribute Data"; every value has the same length.
    package let attributeDataList: [AttributeData]

    /// Every value must have the same length, at most 251 bytes: anything else cannot be
    /// encoded and is a programming error.
    package init(attributeDataList: [AttributeData]) {
        let valueLength = attributeDataList.first?.attributeValue.count ?? 0
        precondition(attributeDataList.allSatisfy { $0.attributeValue.count == valueLength },
                     "ATTReadByGroupTypeResponse: every attribute value must have the same length")
        precondition(valueLength <= 251, "ATTReadByGroupTypeResponse: a value longer than 251 bytes cannot be encoded")
        self.length = UInt8(4 + valueLength)
        self.attributeDataList = attributeDataList
    }

    package init(decoding bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTParameterReader(bytes, expecting: Self.opcode)
        length = try reader.byte()
        guard length >= 4 else { throw .invalidElementLength(Self.opcode, length: length, minimum: 4) }
        let valueLength = Int(length) - 4
        attributeDataList = try reader.list(elementLength: Int(length)) { reader throws(ATTDecodingError) in
            let handle = try reader.uint16()
            let end = try reader.uint16()
            return AttributeData(attributeHandle: handle, endGroupHandle: end,
                                 attributeValue: try reader.bytes(count: valueLength))
        }
    }

    package var bytes: [UInt8] {
        var writer = ATTParameterWriter(Self.opcode, capacity: 2 + attributeDataList.count * Int(length))
        writer.byte(length)
        for element in attributeDataList {
            writer.uint16(element.attributeHandle)
            writer.uint16(element.endGroupHandle)
            writer.bytes(element.attributeValue)
        }
        return writer.bytes
    }
}
