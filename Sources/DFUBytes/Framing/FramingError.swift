/// Why a frame could not be built, sealed or reassembled.
public enum FramingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The format's length field is not 1, 2 or 4 bytes wide.
    case unsupportedLengthWidth(Int)
    /// The length field does not lie inside the header.
    case lengthFieldOutsideHeader(lengthOffset: Int, lengthWidth: Int, headerSize: Int)
    /// The format's `maximumPayloadLength` is negative.
    case negativeMaximumPayloadLength(Int)
    /// `frame(payload:)` needs a header that holds nothing but the length; this one has other
    /// fields the caller must fill in (build the frame yourself and `seal` it).
    case headerNotLengthOnly(headerSize: Int, lengthWidth: Int)
    /// A payload of `length` bytes is longer than `limit`, the smaller of the format's
    /// `maximumPayloadLength` and what the length field can express.
    case payloadTooLong(length: Int, limit: Int)
    /// A frame of `frameLength` bytes is shorter than its `headerSize`-byte header.
    case frameShorterThanHeader(frameLength: Int, headerSize: Int)
    /// A peer announced a length above `limit` in the header of the frame that starts at byte
    /// `streamOffset` of the notification stream.
    case announcedLengthTooLarge(announced: Int, limit: Int, streamOffset: Int)
    /// A peer announced a whole-frame length smaller than the header itself, in the frame that
    /// starts at byte `streamOffset` of the notification stream.
    case announcedLengthSmallerThanHeader(announced: Int, headerSize: Int, streamOffset: Int)

    public var description: String {
        switch self {
        case let .unsupportedLengthWidth(width):
            return "length field width \(width) is not supported (use 1, 2 or 4 bytes)"
        case let .lengthFieldOutsideHeader(offset, width, headerSize):
            return "length field at bytes \(offset)..<\(offset + width) does not fit in the \(headerSize)-byte header"
        case let .negativeMaximumPayloadLength(limit):
            return "maximum payload length \(limit) is negative"
        case let .headerNotLengthOnly(headerSize, width):
            return "the \(headerSize)-byte header has fields besides its \(width)-byte length; "
                + "build the header yourself and seal the frame"
        case let .payloadTooLong(length, limit):
            return "payload of \(length) bytes is longer than the limit of \(limit) bytes"
        case let .frameShorterThanHeader(frameLength, headerSize):
            return "frame of \(frameLength) bytes is shorter than its \(headerSize)-byte header"
        case let .announcedLengthTooLarge(announced, limit, streamOffset):
            return "frame at stream byte \(streamOffset) announces length \(announced), above the limit of \(limit); "
                + "the peer's framing does not match the profile, or the stream lost bytes"
        case let .announcedLengthSmallerThanHeader(announced, headerSize, streamOffset):
            return "frame at stream byte \(streamOffset) announces a frame length of \(announced), "
                + "shorter than its own \(headerSize)-byte header"
        }
    }
}
