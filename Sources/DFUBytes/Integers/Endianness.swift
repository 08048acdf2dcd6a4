/// Byte order of a multi-byte integer on the wire.
public enum Endianness: String, Sendable, Hashable, CaseIterable {
    case little
    case big
}
