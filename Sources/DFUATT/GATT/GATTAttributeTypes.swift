import DFUBytes

/// Attribute types GATT declares its database with (Core spec Vol 3, Part G, 3; Assigned
/// Numbers 3.6 "GATT Declarations" and 3.7 "Descriptors").
package enum GATTAttributeTypes {
    /// «Primary Service» 0x2800.
    package static let primaryService = BluetoothUUID(uuid16: 0x2800)
    /// «Secondary Service» 0x2801.
    package static let secondaryService = BluetoothUUID(uuid16: 0x2801)
    /// «Include» 0x2802.
    package static let include = BluetoothUUID(uuid16: 0x2802)
    /// «Characteristic» 0x2803.
    package static let characteristic = BluetoothUUID(uuid16: 0x2803)
    /// «Client Characteristic Configuration» 0x2902.
    package static let clientCharacteristicConfiguration = BluetoothUUID(uuid16: 0x2902)
}
