/// Why a `.dat` init packet cannot be decoded. Every case names the field (in dfu-cc.proto's words)
/// or the byte offset where decoding stopped.
public enum NordicInitPacketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The init packet has no bytes.
    case empty
    /// The bytes are not well-formed protobuf.
    case malformed(ProtobufError)
    /// A known field arrived with a wire type its declared type cannot have.
    case wrongWireType(field: String, expected: ProtobufWireType, found: ProtobufWireType, offset: Int)
    /// A varint does not fit the field's declared type (e.g. above 2^32 - 1 for a uint32).
    case valueOutOfRange(field: String, value: UInt64, offset: Int)
    /// A field every DFU init packet has is absent, e.g. `Packet.command` or `Command.init`.
    case missingField(String)
    /// A legacy (SDK <= 11) init packet is shorter than its fixed fields and `sd_req` list need.
    case legacyTooShort(byteCount: Int, needed: Int)

    public var description: String {
        switch self {
        case .empty:
            return "the init packet is empty"
        case let .malformed(error):
            return "the init packet is not valid protobuf: \(error)"
        case let .wrongWireType(field, expected, found, offset):
            return "offset \(offset): field \(field) is \(found), expected \(expected)"
        case let .valueOutOfRange(field, value, offset):
            return "offset \(offset): field \(field) has value \(value), out of range for its type"
        case let .missingField(field):
            return "field \(field) is missing"
        case let .legacyTooShort(byteCount, needed):
            return "the legacy init packet has \(byteCount) bytes, its fields need \(needed)"
        }
    }
}
