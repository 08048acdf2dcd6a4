import DFUBytes

/// One ATT PDU type (Core spec Vol 3, Part F, 3.4): its opcode, a decoder and an encoder that
/// mirror each other. `bytes` starts with the opcode.
package protocol ATTProtocolDataUnit: Sendable, Hashable {
    static var opcode: ATTOpcode { get }
    /// Decodes a whole PDU (opcode included), refusing anything malformed with a typed error.
    init(decoding bytes: [UInt8]) throws(ATTDecodingError)
    /// The whole PDU, opcode first.
    var bytes: [UInt8] { get }
}

extension ATTProtocolDataUnit {
    /// Decodes a whole PDU, or nil if it is malformed (see `init(decoding:)` for why).
    package init?(bytes: [UInt8]) {
        guard let decoded = try? Self(decoding: bytes) else { return nil }
        self = decoded
    }
}

/// A request: the client sends it and waits for `Response` or an Error Response naming it.
package protocol ATTRequestPDU: ATTProtocolDataUnit {
    associatedtype Response: ATTProtocolDataUnit
}

/// Reads one PDU's parameters, turning short or long input into `ATTDecodingError`s that name
/// the PDU and the offset.
struct ATTParameterReader {
    private var reader: ByteReader
    let opcode: ATTOpcode

    /// Checks the opcode and positions the reader on the first parameter.
    init(_ bytes: [UInt8], expecting opcode: ATTOpcode) throws(ATTDecodingError) {
        guard let first = bytes.first else { throw .empty }
        guard first == opcode.rawValue else { throw .wrongOpcode(expected: opcode, found: ATTOpcode(first)) }
        self.opcode = opcode
        self.reader = ByteReader(bytes)
        _ = try? reader.readByte()
    }

    var offset: Int { reader.offset }
    var remainingCount: Int { reader.remainingCount }

    mutating func byte() throws(ATTDecodingError) -> UInt8 {
        do { return try reader.readByte() } catch { throw converted(error) }
    }

    /// A little-endian 16-bit field (handles, offsets, MTUs).
    mutating func uint16() throws(ATTDecodingError) -> UInt16 {
        do { return UInt16(try reader.readUnsigned(width: 2, endianness: .little)) } catch { throw converted(error) }
    }

    mutating func bytes(count: Int) throws(ATTDecodingError) -> [UInt8] {
        do { return try reader.readBytes(count: count) } catch { throw converted(error) }
    }

    /// A 2- or 16-byte UUID filling the rest of the PDU.
    mutating func uuidToEnd() throws(ATTDecodingError) -> BluetoothUUID {
        let start = reader.offset
        let wire = reader.readRemaining()
        guard wire.count == 2 || wire.count == 16, let uuid = BluetoothUUID(littleEndianBytes: wire) else {
            throw .invalidUUIDLength(opcode, offset: start, length: wire.count)
        }
        return uuid
    }

    mutating func remaining() -> [UInt8] { reader.readRemaining() }

    /// The rest of the PDU as a non-empty list of `elementLength`-byte elements, each read by
    /// `element` (the Find Information, Read By Type and Read By Group Type responses).
    mutating func list<Element>(elementLength: Int,
                                _ element: (inout ATTParameterReader) throws(ATTDecodingError) -> Element)
        throws(ATTDecodingError) -> [Element] {
        guard remainingCount > 0, remainingCount % elementLength == 0 else {
            throw .invalidListLength(opcode, listBytes: remainingCount, elementLength: elementLength)
        }
        var elements: [Element] = []
        elements.reserveCapacity(remainingCount / elementLength)
        while remainingCount > 0 { elements.append(try element(&self)) }
        return elements
    }

    /// Refuses bytes after the last parameter.
    func finish() throws(ATTDecodingError) {
        guard reader.isAtEnd else {
            throw .trailingBytes(opcode, offset: reader.offset, count: reader.remainingCount)
        }
    }

    private func converted(_ error: ByteReaderError) -> ATTDecodingError {
        switch error {
        case let .notEnoughBytes(offset, needed, available):
            return .truncated(opcode, offset: offset, needed: needed, available: available)
        case let .unsupportedWidth(_, offset), let .negativeCount(_, offset):
            return .truncated(opcode, offset: offset, needed: 0, available: reader.remainingCount)
        }
    }
}

/// Starts an encoded PDU with its opcode.
struct ATTParameterWriter {
    private var writer: ByteWriter

    init(_ opcode: ATTOpcode, capacity: Int = 8) {
        writer = ByteWriter(capacity: capacity)
        writer.append(byte: opcode.rawValue)
    }

    mutating func byte(_ value: UInt8) { writer.append(byte: value) }
    mutating func uint16(_ value: UInt16) { writer.append(value, endianness: .little) }
    mutating func bytes<Bytes: Sequence>(_ value: Bytes) where Bytes.Element == UInt8 { writer.append(bytes: value) }
    /// The UUID as ATT carries it: 2 bytes for a 16-bit SIG UUID, otherwise 16 (little-endian).
    mutating func uuid(_ value: BluetoothUUID) { writer.append(bytes: value.littleEndianBytes) }

    var bytes: [UInt8] { writer.bytes }
}
