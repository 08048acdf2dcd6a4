import DFUGATT

/// A device at the end of a wire has no Bluetooth address: it is known by a stand-in derived
/// from what names its port for good (a USB serial number, a physical USB path, a UDP address),
/// so that the ledger and the reports name the same device the same way every time.
enum WireDeviceIdentity {
    /// A static random address (top two bits set) from a 64-bit FNV-1a hash of `identity`.
    static func address(for identity: String) -> DeviceAddress {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in identity.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return DeviceAddress(value: (hash & 0x3FFF_FFFF_FFFF) | 0xC000_0000_0000)
    }
}
