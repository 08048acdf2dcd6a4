import DFUBytes

/// SIG-assigned UUIDs the GATT layer itself uses.
public enum BluetoothUUIDs {
    /// Client Characteristic Configuration descriptor (0x2902).
    public static let clientConfiguration = BluetoothUUID(uuid16: 0x2902)
}
