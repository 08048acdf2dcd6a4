/// Byte order of a multi-byte integer on the wire.
public enum Endianness: String, Sendable, Hashable, CaseIterable {
    /// Least significant byte first (most BLE protocols).
    case little
    /// Most significant byte first (network order; MCUmgr's SMP header).
    case big
}
