import DFUBytes
import DFUGATT

/// The value of a characteristic declaration (Core spec Vol 3, Part G, 3.3.1): Characteristic
/// Properties (1 octet), Characteristic Value Attribute Handle (2 octets), Characteristic UUID
/// (2 or 16 octets).
package struct GATTCharacteristicDeclaration: Sendable, Hashable {
    /// The handle of the declaration itself.
    package var declarationHandle: UInt16
    package var properties: GATTProperties
    package var valueHandle: UInt16
    package var uuid: BluetoothUUID

    package init(declarationHandle: UInt16, properties: GATTProperties, valueHandle: UInt16, uuid: BluetoothUUID) {
        self.declarationHandle = declarationHandle
        self.properties = properties
        self.valueHandle = valueHandle
        self.uuid = uuid
    }

    /// Parses the declaration's value as read from attribute `declarationHandle`; nil unless
    /// it is 5 or 19 bytes long.
    package init?(declarationHandle: UInt16, value: [UInt8]) {
        guard value.count == 5 || value.count == 19,
              let uuid = BluetoothUUID(littleEndianBytes: Array(value[3...])) else { return nil }
        self.declarationHandle = declarationHandle
        self.properties = GATTProperties(rawValue: value[0])
        self.valueHandle = UInt16(value[1]) | UInt16(value[2]) << 8
        self.uuid = uuid
    }

    /// The declaration's value as a server stores it.
    package var value: [UInt8] {
        [properties.rawValue, UInt8(valueHandle & 0xFF), UInt8(valueHandle >> 8)] + uuid.littleEndianBytes
    }
}
