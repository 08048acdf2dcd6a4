/// Builds a byte buffer from unsigned integers of the widths wire formats use (1, 2, 3, 4 or 8
/// bytes) in either byte order, plus raw bytes.
///
/// A width outside that set, or a value that does not fit the width, is a programming error and
/// stops the program: silently truncating a length or an offset would corrupt a frame.
public struct ByteWriter: Sendable, Hashable {
    /// Widths, in bytes, that `append(_:width:endianness:)` accepts.
    package static let supportedWidths: Set<Int> = [1, 2, 3, 4, 8]

    /// Everything appended so far.
    public private(set) var bytes: [UInt8]

    /// An empty writer, with room reserved for `capacity` bytes.
    public init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Number of bytes written so far.
    public var count: Int { bytes.count }

    /// Appends the low `width` bytes of `value` in `endianness`.
    public mutating func append(_ value: UInt64, width: Int, endianness: Endianness) {
        precondition(Self.supportedWidths.contains(width),
                     "ByteWriter: unsupported integer width \(width); use 1, 2, 3, 4 or 8")
        precondition(width == 8 || value >> UInt64(width * 8) == 0,
                     "ByteWriter: value \(value) does not fit in \(width) byte(s)")
        switch endianness {
        case .little:
            for index in 0..<width {
                bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(index * 8)))
            }
        case .big:
            for index in stride(from: width - 1, through: 0, by: -1) {
                bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(index * 8)))
            }
        }
    }

    /// Appends a fixed-width unsigned integer using its own size (`UInt16` -> 2 bytes).
    public mutating func append<Value: FixedWidthInteger & UnsignedInteger>(_ value: Value,
                                                                           endianness: Endianness) {
        append(UInt64(value), width: Value.bitWidth / 8, endianness: endianness)
    }

    /// Appends one byte.
    public mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends raw bytes unchanged.
    public mutating func append<Bytes: Sequence>(bytes other: Bytes) where Bytes.Element == UInt8 {
        bytes.append(contentsOf: other)
    }
}
