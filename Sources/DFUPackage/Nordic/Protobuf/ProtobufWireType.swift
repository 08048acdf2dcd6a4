/// The protobuf wire type: the low three bits of a field's tag, which say how its value is laid out.
public enum ProtobufWireType: UInt8, Sendable, Hashable, CustomStringConvertible {
    /// A base-128 varint (int32, uint32, uint64, bool, enum).
    case varint = 0
    /// Eight little-endian bytes (fixed64, sfixed64, double).
    case fixed64 = 1
    /// A varint length, then that many bytes (bytes, string, messages, packed repeated fields).
    case lengthDelimited = 2
    /// Start of a group (deprecated in proto2); skipped up to its matching end.
    case startGroup = 3
    /// End of a group.
    case endGroup = 4
    /// Four little-endian bytes (fixed32, sfixed32, float).
    case fixed32 = 5

    public var description: String {
        switch self {
        case .varint: return "varint"
        case .fixed64: return "fixed64"
        case .lengthDelimited: return "length-delimited"
        case .startGroup: return "start-group"
        case .endGroup: return "end-group"
        case .fixed32: return "fixed32"
        }
    }
}
