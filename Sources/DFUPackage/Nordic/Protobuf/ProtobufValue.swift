/// The value of one protobuf field as it sits on the wire, before it is given a type.
///
/// A length-delimited value is a slice of the input, so it keeps the input's indices: a reader
/// over it reports offsets within the whole message.
public enum ProtobufValue: Sendable, Equatable {
    /// Wire type 0: a varint.
    case varint(UInt64)
    /// Wire type 1: eight bytes, little-endian.
    case fixed64(UInt64)
    /// Wire type 2: bytes, a nested message or packed values.
    case lengthDelimited(ArraySlice<UInt8>)
    /// Wire type 5: four bytes, little-endian.
    case fixed32(UInt32)
    /// A group, skipped whole; only its extent is kept.
    case group(Range<Int>)

    package var wireType: ProtobufWireType {
        switch self {
        case .varint: return .varint
        case .fixed64: return .fixed64
        case .lengthDelimited: return .lengthDelimited
        case .fixed32: return .fixed32
        case .group: return .startGroup
        }
    }
}
