/// Why bytes received from a peer are not a well-formed ATT PDU. Offsets count from the
/// opcode (offset 0).
package enum ATTDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Zero bytes: not even an opcode.
    case empty
    /// A decoder for one PDU was given another.
    case wrongOpcode(expected: ATTOpcode, found: ATTOpcode)
    /// The PDU ended at `offset` where `needed` more bytes were expected.
    case truncated(ATTOpcode, offset: Int, needed: Int, available: Int)
    /// The PDU has `count` bytes past its last parameter, from `offset`.
    case trailingBytes(ATTOpcode, offset: Int, count: Int)
    /// A UUID field was neither 2 nor 16 bytes long.
    case invalidUUIDLength(ATTOpcode, offset: Int, length: Int)
    /// A Find Information Response Format other than 0x01 (16-bit UUIDs) or 0x02 (128-bit).
    case invalidFormat(ATTOpcode, format: UInt8)
    /// A Length field too small for the fixed part of each list element.
    case invalidElementLength(ATTOpcode, length: UInt8, minimum: Int)
    /// The list's byte count is not a whole number of elements of `elementLength` bytes
    /// (or the list is empty where the spec requires at least one element).
    case invalidListLength(ATTOpcode, listBytes: Int, elementLength: Int)

    package var description: String {
        switch self {
        case .empty:
            return "empty ATT PDU (no opcode)"
        case let .wrongOpcode(expected, found):
            return "expected \(expected), found \(found)"
        case let .truncated(opcode, offset, needed, available):
            return "\(opcode) too short: needed \(needed) byte(s) at offset \(offset), only \(available) left"
        case let .trailingBytes(opcode, offset, count):
            return "\(opcode) has \(count) unexpected byte(s) from offset \(offset)"
        case let .invalidUUIDLength(opcode, offset, length):
            return "\(opcode): the UUID at offset \(offset) has \(length) bytes; ATT carries 2 or 16"
        case let .invalidFormat(opcode, format):
            return "\(opcode): Format 0x\(hexByte(format)) is neither 0x01 (16-bit UUIDs) nor 0x02 (128-bit UUIDs)"
        case let .invalidElementLength(opcode, length, minimum):
            return "\(opcode): Length \(length) is below the minimum of \(minimum)"
        case let .invalidListLength(opcode, listBytes, elementLength):
            return "\(opcode): a list of \(listBytes) byte(s) is not one or more elements of \(elementLength) bytes"
        }
    }
}
