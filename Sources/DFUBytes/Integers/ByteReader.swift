/// Reads unsigned integers and byte runs from the front of a byte array, tracking the offset so
/// that every error can say where in the input it happened.
///
/// A failed read consumes nothing: `offset` is unchanged and the read can be retried with a
/// smaller count.
package struct ByteReader: Sendable, Hashable {
    /// The whole input.
    package let bytes: [UInt8]
    /// Index of the next byte to read.
    package private(set) var offset: Int

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.offset = 0
    }

    /// Bytes not yet read.
    package var remainingCount: Int { bytes.count - offset }

    /// Whether every byte has been read.
    package var isAtEnd: Bool { offset == bytes.count }

    /// Reads a `width`-byte unsigned integer (1, 2, 3, 4 or 8) in `endianness`.
    package mutating func readUnsigned(width: Int, endianness: Endianness) throws(ByteReaderError) -> UInt64 {
        guard ByteWriter.supportedWidths.contains(width) else {
            throw .unsupportedWidth(width, offset: offset)
        }
        try require(width)
        var value: UInt64 = 0
        switch endianness {
        case .little:
            for index in stride(from: width - 1, through: 0, by: -1) {
                value = value << 8 | UInt64(bytes[offset + index])
            }
        case .big:
            for index in 0..<width {
                value = value << 8 | UInt64(bytes[offset + index])
            }
        }
        offset += width
        return value
    }

    /// Reads one byte.
    package mutating func readByte() throws(ByteReaderError) -> UInt8 {
        try require(1)
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Reads the next `count` bytes.
    package mutating func readBytes(count: Int) throws(ByteReaderError) -> [UInt8] {
        guard count >= 0 else { throw .negativeCount(count, offset: offset) }
        try require(count)
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// Skips the next `count` bytes.
    package mutating func skip(count: Int) throws(ByteReaderError) {
        guard count >= 0 else { throw .negativeCount(count, offset: offset) }
        try require(count)
        offset += count
    }

    /// Reads everything that is left (possibly nothing).
    package mutating func readRemaining() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }

    private func require(_ count: Int) throws(ByteReaderError) {
        guard count <= remainingCount else {
            throw .notEnoughBytes(offset: offset, needed: count, available: remainingCount)
        }
    }
}
