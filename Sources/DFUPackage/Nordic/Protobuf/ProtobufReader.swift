/// Reads the fields of one protobuf message in wire order (proto2/proto3 binary format).
///
/// The reader gives raw values; the caller knows the schema and gives them types. Fields it does
/// not know are simply not looked at, which is how protobuf skips unknown fields. Malformed input
/// is a `ProtobufError` with the byte offset; the reader never traps and never reads past its
/// input, whatever lengths the input claims.
///
/// ```swift
/// var reader = ProtobufReader(bytes)
/// while let field = try reader.nextField() { ... }
/// ```
package struct ProtobufReader: Sendable {
    /// How deeply groups may nest before the input is refused.
    package static let maximumGroupDepth = 64

    private let bytes: ArraySlice<UInt8>
    /// Index (in the input's own indices) of the next byte to read.
    package private(set) var position: Int

    /// A reader over a whole message; offsets in errors count from its first byte.
    package init(_ bytes: [UInt8]) {
        self.init(bytes[...])
    }

    /// A reader over a slice, e.g. a nested message's bytes from `ProtobufValue.lengthDelimited`;
    /// offsets in errors are the slice's indices, i.e. offsets within the outermost input.
    package init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.position = bytes.startIndex
    }

    /// Whether every byte has been read.
    package var isAtEnd: Bool { position >= bytes.endIndex }

    /// The next field, or `nil` at the end of the message.
    package mutating func nextField() throws(ProtobufError) -> ProtobufField? {
        guard !isAtEnd else { return nil }
        let start = position
        let (number, wireType) = try readTag()
        let value: ProtobufValue
        switch wireType {
        case .varint:
            value = .varint(try readVarint())
        case .fixed64:
            value = .fixed64(try readFixed(size: 8))
        case .fixed32:
            value = .fixed32(UInt32(truncatingIfNeeded: try readFixed(size: 4)))
        case .lengthDelimited:
            value = .lengthDelimited(try readLengthDelimited())
        case .startGroup:
            try skipGroup(number: number, tagOffset: start)
            value = .group(start..<position)
        case .endGroup:
            throw .unmatchedEndGroup(field: number, offset: start)
        }
        return ProtobufField(number: number, value: value, offset: start)
    }

    /// Every remaining field, in wire order.
    package mutating func readAllFields() throws(ProtobufError) -> [ProtobufField] {
        var fields: [ProtobufField] = []
        while let field = try nextField() { fields.append(field) }
        return fields
    }

    /// Reads a base-128 varint (at most ten bytes, at most 64 bits).
    package mutating func readVarint() throws(ProtobufError) -> UInt64 {
        let start = position
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < bytes.endIndex else { throw .truncatedVarint(offset: start) }
            let byte = bytes[position]
            position += 1
            let payload = UInt64(byte & 0x7F)
            if shift == 63, payload > 1 { throw .varintTooLong(offset: start) }
            result |= payload << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 { throw .varintTooLong(offset: start) }
        }
    }

    /// Decodes the payload of a packed repeated varint field (e.g. `repeated uint32 x = 3 [packed=true]`).
    package static func packedVarints(_ payload: ArraySlice<UInt8>) throws(ProtobufError) -> [UInt64] {
        var reader = ProtobufReader(payload)
        var values: [UInt64] = []
        while !reader.isAtEnd { values.append(try reader.readVarint()) }
        return values
    }

    private mutating func readTag() throws(ProtobufError) -> (number: Int, wireType: ProtobufWireType) {
        let start = position
        let tag = try readVarint()
        let rawWireType = UInt8(tag & 0x07)
        let number = tag >> 3
        guard let wireType = ProtobufWireType(rawValue: rawWireType) else {
            throw .unknownWireType(rawWireType, offset: start)
        }
        guard number >= 1, number <= 0x1FFF_FFFF else { throw .invalidFieldNumber(number, offset: start) }
        return (Int(number), wireType)
    }

    private mutating func readFixed(size: Int) throws(ProtobufError) -> UInt64 {
        let available = bytes.endIndex - position
        guard available >= size else { throw .truncatedFixed(offset: position, needed: size, available: available) }
        var value: UInt64 = 0
        for index in stride(from: size - 1, through: 0, by: -1) {
            value = value << 8 | UInt64(bytes[position + index])
        }
        position += size
        return value
    }

    private mutating func readLengthDelimited() throws(ProtobufError) -> ArraySlice<UInt8> {
        let length = try readVarint()
        let available = bytes.endIndex - position
        guard length <= UInt64(available) else {
            throw .lengthPastEnd(offset: position, length: length, available: available)
        }
        let payload = bytes[position..<position + Int(length)]
        position += Int(length)
        return payload
    }

    /// Skips up to and including the end-group tag matching `number`, through nested groups.
    private mutating func skipGroup(number: Int, tagOffset: Int) throws(ProtobufError) {
        var open: [Int] = [number]
        while let innermost = open.last {
            guard !isAtEnd else { throw .unterminatedGroup(field: innermost, offset: tagOffset) }
            let start = position
            let (fieldNumber, wireType) = try readTag()
            switch wireType {
            case .varint: _ = try readVarint()
            case .fixed64: _ = try readFixed(size: 8)
            case .fixed32: _ = try readFixed(size: 4)
            case .lengthDelimited: _ = try readLengthDelimited()
            case .startGroup:
                guard open.count < Self.maximumGroupDepth else { throw .nestingTooDeep(offset: start) }
                open.append(fieldNumber)
            case .endGroup:
                guard fieldNumber == innermost else { throw .unmatchedEndGroup(field: fieldNumber, offset: start) }
                open.removeLast()
            }
        }
    }
}
