import DFUBytes

/// ATT_READ_BY_TYPE_REQ (Core spec Vol 3, Part F, 3.4.4.1): "used to obtain the values of
/// attributes where the attribute type is known but the handle is not known". GATT uses it
/// with type 0x2803 (Characteristic) to discover characteristics.
package struct ATTReadByTypeRequest: ATTRequestPDU {
    package typealias Response = ATTReadByTypeResponse
    package static let opcode = ATTOpcode.readByTypeRequest

    /// Starting Handle: "first requested handle number".
    package var startingHandle: UInt16
    /// Ending Handle: "last requested handle number".
    package var endingHandle: UInt16
    /// Attribute Type: "2 or 16 octet UUID".
    package var attributeType: BluetoothUUID

    package init(startingHandle: UInt16, endingHandle: UInt16, attributeType: BluetoothUUID) {
        self.startingHandle = startingHandle
        self.endingHandle = endingHandle
        self.attributeType = attributeType
    }

    package init(decoding bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTParameterReader(bytes, expecting: Self.opcode)
        startingHandle = try reader.uint16()
        endingHandle = try reader.uint16()
        attributeType = try reader.uuidToEnd()
    }

    package var bytes: [UInt8] {
        var writer = ATTParameterWriter(Self.opcode, capacity: 21)
        writer.uint16(startingHandle)
        writer.uint16(endingHandle)
        writer.uuid(attributeType)
        return writer.bytes
    }
}
