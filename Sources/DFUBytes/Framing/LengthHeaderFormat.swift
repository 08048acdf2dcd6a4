/// How a length-prefixed frame is laid out: a fixed header of `headerSize` bytes holding, at
/// `lengthOffset`, an unsigned length field of `lengthWidth` bytes in `endianness`.
///
/// Examples:
/// - the vendor control point: `headerSize 2, lengthOffset 0, lengthWidth 2, little, payload`;
/// - MCUmgr SMP: `headerSize 8, lengthOffset 2, lengthWidth 2, big, payload` (the 8-byte header
///   itself is part of the frame, the length counts the CBOR body only).
public struct LengthHeaderFormat: Sendable, Hashable {
    /// What the length field counts.
    public enum LengthCounts: String, Sendable, Hashable {
        /// Only the bytes after the header.
        case payload
        /// The whole frame, header included.
        case frame
    }

    public var headerSize: Int
    public var lengthOffset: Int
    /// 1, 2 or 4 bytes.
    public var lengthWidth: Int
    public var endianness: Endianness
    public var lengthCounts: LengthCounts
    /// The largest payload a peer may announce; a longer one is rejected as impossible.
    public var maximumPayloadLength: Int

    public init(headerSize: Int, lengthOffset: Int = 0, lengthWidth: Int, endianness: Endianness,
                lengthCounts: LengthCounts = .payload, maximumPayloadLength: Int = 65_535) {
        self.headerSize = headerSize
        self.lengthOffset = lengthOffset
        self.lengthWidth = lengthWidth
        self.endianness = endianness
        self.lengthCounts = lengthCounts
        self.maximumPayloadLength = maximumPayloadLength
    }
}
