/// Why a `ByteReader` could not read.
public enum ByteReaderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The read at `offset` needed `needed` bytes but only `available` remained.
    case notEnoughBytes(offset: Int, needed: Int, available: Int)
    /// An integer width other than 1, 2, 3, 4 or 8 was asked for at `offset`.
    case unsupportedWidth(Int, offset: Int)
    /// A negative byte count was asked for at `offset`.
    case negativeCount(Int, offset: Int)

    public var description: String {
        switch self {
        case let .notEnoughBytes(offset, needed, available):
            return "not enough bytes at offset \(offset): needed \(needed), only \(available) available"
        case let .unsupportedWidth(width, offset):
            return "unsupported integer width \(width) at offset \(offset) (use 1, 2, 3, 4 or 8)"
        case let .negativeCount(count, offset):
            return "negative byte count \(count) requested at offset \(offset)"
        }
    }
}
