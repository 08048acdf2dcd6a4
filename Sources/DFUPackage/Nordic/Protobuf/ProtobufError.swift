/// Why bytes are not a well-formed protobuf message. Every case says where (byte offset from the
/// start of the input) the problem starts.
public enum ProtobufError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input ends inside a varint.
    case truncatedVarint(offset: Int)
    /// A varint runs past ten bytes or past 64 bits.
    case varintTooLong(offset: Int)
    /// A tag carries field number 0 or one above 2^29 - 1.
    case invalidFieldNumber(UInt64, offset: Int)
    /// A tag carries wire type 6 or 7, which do not exist.
    case unknownWireType(UInt8, offset: Int)
    /// A length-delimited field claims more bytes than are left.
    case lengthPastEnd(offset: Int, length: UInt64, available: Int)
    /// A fixed32 or fixed64 field has fewer bytes than it needs.
    case truncatedFixed(offset: Int, needed: Int, available: Int)
    /// An end-group tag with no group open, or closing a different field's group.
    case unmatchedEndGroup(field: Int, offset: Int)
    /// A group that never ends.
    case unterminatedGroup(field: Int, offset: Int)
    /// Groups nested deeper than the reader allows.
    case nestingTooDeep(offset: Int)

    /// Where the problem starts.
    public var offset: Int {
        switch self {
        case let .truncatedVarint(offset), let .varintTooLong(offset), let .invalidFieldNumber(_, offset),
             let .unknownWireType(_, offset), let .lengthPastEnd(offset, _, _), let .truncatedFixed(offset, _, _),
             let .unmatchedEndGroup(_, offset), let .unterminatedGroup(_, offset), let .nestingTooDeep(offset):
            return offset
        }
    }

    public var description: String {
        switch self {
        case let .truncatedVarint(offset):
            return "offset \(offset): the input ends inside a varint"
        case let .varintTooLong(offset):
            return "offset \(offset): varint longer than 10 bytes or wider than 64 bits"
        case let .invalidFieldNumber(number, offset):
            return "offset \(offset): invalid field number \(number)"
        case let .unknownWireType(wireType, offset):
            return "offset \(offset): unknown wire type \(wireType)"
        case let .lengthPastEnd(offset, length, available):
            return "offset \(offset): length-delimited field of \(length) bytes, but only \(available) bytes are left"
        case let .truncatedFixed(offset, needed, available):
            return "offset \(offset): fixed-width field needs \(needed) bytes, but only \(available) are left"
        case let .unmatchedEndGroup(field, offset):
            return "offset \(offset): end of group \(field) without its start"
        case let .unterminatedGroup(field, offset):
            return "offset \(offset): group \(field) never ends"
        case let .nestingTooDeep(offset):
            return "offset \(offset): groups nested too deeply"
        }
    }
}
