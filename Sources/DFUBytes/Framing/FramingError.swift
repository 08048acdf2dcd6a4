/// Why a frame could not be built, sealed or reassembled.
public enum FramingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The format's length field is not 1, 2 or 4 bytes wide.
    case unsupportedLengthWidth(Int)
    /// The length field does not lie inside the header.
    case lengthFieldOutsideHeader(lengthOffset: Int, lengthWidth: Int, headerSize: Int)
    /// The format's `maximumPayloadLength` is negative.
    case negativeMaximumPayloadLength(Int)
    /// `frame(payload:)` needs a header that holds nothing but the length; this one has other
    /// fields the caller must fill in (build the frame with `frame(message:)`).
    case headerNotLengthOnly(headerSize: Int, lengthWidth: Int)
    /// A payload of `length` bytes is longer than `limit`, the smaller of the format's
    /// `maximumPayloadLength` and what the length field can express.
    case payloadTooLong(length: Int, limit: Int)
    /// A frame of `frameLength` bytes is shorter than its `headerSize`-byte header (with its
    /// trailer, when checking one).
    case frameShorterThanHeader(frameLength: Int, headerSize: Int)
    /// A peer announced a length above `limit` in the header of the frame that starts at byte
    /// `streamOffset` of the notification stream.
    case announcedLengthTooLarge(announced: Int, limit: Int, streamOffset: Int)
    /// A peer announced a length smaller than `minimum`, the bytes the length must count
    /// besides the payload (the header when it counts the frame, the trailer when it counts
    /// it), in the frame that starts at byte `streamOffset` of the notification stream.
    case announcedLengthTooSmall(announced: Int, minimum: Int, streamOffset: Int)
    /// The trailer's checksum is not 1 to 8 bytes wide.
    case unsupportedTrailerWidth(name: String, width: Int)
    /// A message of `messageLength` bytes is shorter than the `headerBytes` bytes of the header
    /// it must hold.
    case messageShorterThanHeader(messageLength: Int, headerBytes: Int)
    /// A frame's trailer does not hold the checksum of the bytes before it.
    case checksumMismatch(checksum: String, width: Int, computed: UInt64, received: UInt64)

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
                + "build the frame with frame(message:)"
        case let .payloadTooLong(length, limit):
            return "payload of \(length) bytes is longer than the limit of \(limit) bytes"
        case let .frameShorterThanHeader(frameLength, headerSize):
            return "frame of \(frameLength) bytes is shorter than the \(headerSize) bytes of its header (and trailer)"
        case let .announcedLengthTooLarge(announced, limit, streamOffset):
            return "frame at stream byte \(streamOffset) announces length \(announced), above the limit of \(limit); "
                + "the peer's framing does not match the profile, or the stream lost bytes"
        case let .announcedLengthTooSmall(announced, minimum, streamOffset):
            return "frame at stream byte \(streamOffset) announces length \(announced), "
                + "less than the \(minimum) bytes of header and checksum it must count"
        case let .unsupportedTrailerWidth(name, width):
            return "checksum '\(name)' takes \(width) bytes; a trailer takes 1 to 8"
        case let .messageShorterThanHeader(messageLength, headerBytes):
            return "the message of \(messageLength) bytes is shorter than the \(headerBytes) header bytes it must hold"
        case let .checksumMismatch(checksum, width, computed, received):
            return "the frame's \(checksum) trailer is \(Self.hex(received, width: width)), "
                + "its bytes give \(Self.hex(computed, width: width))"
        }
    }

    private static func hex(_ value: UInt64, width: Int) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, width * 2 - digits.count)) + digits
    }
}
