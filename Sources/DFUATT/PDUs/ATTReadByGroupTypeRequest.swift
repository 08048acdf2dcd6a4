import DFUBytes

/// ATT_READ_BY_GROUP_TYPE_REQ (Core spec Vol 3, Part F, 3.4.4.9): "used to obtain the values
/// of attributes where the attribute type is known, the type of a grouping attribute as
/// defined by a higher layer specification, but the handle is not known". GATT uses it with
/// type 0x2800 (Primary Service) to discover services.
package struct ATTReadByGroupTypeRequest: ATTRequestPDU {
    package typealias Response = ATTReadByGroupTypeResponse
    package static let opcode = ATTOpcode.readByGroupTypeRequest

    /// Starting Handle: "first requested handle number".
    package var startingHandle: UInt16
    /// Ending Handle: "last requested handle number".
    package var endingHandle: UInt16
    /// Attribute Group Type: "2 or 16 octet UUID".
    package var attributeGroupType: BluetoothUUID

    package init(startingHandle: UInt16, endingHandle: UInt16, attributeGroupType: BluetoothUUID) {
        self.startingHandle = startingHandle
        self.endingHandle = endingHandle
        self.attributeGroupType = attributeGroupType
    }

    package init(decoding bytes: [UInt8]) throws(ATTDecodingError) {
        var reader = try ATTParameterReader(bytes, expecting: Self.opcode)
        startingHandle = try reader.uint16()
        endingHandle = try reader.uint16()
        attributeGroupType = try reader.uuidToEnd()
    }

    package var bytes: [UInt8] {
        var writer = ATTParameterWriter(Self.opcode, capacity: 21)
        writer.uint16(startingHandle)
        writer.uint16(endingHandle)
        writer.uuid(attributeGroupType)
        return writer.bytes
    }
}
