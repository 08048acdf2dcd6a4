/// How a length-prefixed frame is laid out: a fixed header of `headerSize` bytes holding, at
/// `lengthOffset`, an unsigned length field of `lengthWidth` bytes in `endianness`, then the
/// payload, then an optional checksum trailer.
///
/// How the length gets into the frame (`lengthField`):
/// - `.insert`: the message holds the header's other bytes; the length is inserted into it at
///   `lengthOffset` (the message's bytes before stay in front, the rest follows). At offset 0
///   this prepends it: the vendor control point, `headerSize 2, lengthOffset 0, lengthWidth 2,
///   little`. A message `01 e8030000` in `headerSize 3, lengthOffset 1, lengthWidth 2, little`
///   becomes `01 0400 e8030000`.
/// - `.overlay`: the message holds the whole header, with placeholder bytes where the length
///   goes, and the length is written over them: MCUmgr SMP, `headerSize 8, lengthOffset 2,
///   lengthWidth 2, big` (the length counts the CBOR body only).
public struct LengthHeaderFormat: Sendable, Hashable {
    /// What the length field counts.
    public enum LengthCounts: String, Sendable, Hashable {
        /// Only the bytes after the header.
        case payload
        /// The whole frame, header included.
        case frame
    }

    /// How the length field gets into a frame built from a message.
    public enum LengthField: String, Sendable, Hashable {
        /// Inserted into the message at `lengthOffset`.
        case insert
        /// Written over bytes the message holds at `lengthOffset`.
        case overlay
    }

    package var headerSize: Int
    package var lengthOffset: Int
    /// 1, 2 or 4 bytes.
    package var lengthWidth: Int
    /// Byte order of the length field and of the trailer.
    public var endianness: Endianness
    package var lengthCounts: LengthCounts
    /// The largest payload a peer may announce; a longer one is rejected as impossible.
    package var maximumPayloadLength: Int
    package var lengthField: LengthField
    /// A checksum after the payload, if the frames carry one.
    public var trailer: FrameTrailer?

    /// A framing whose `headerSize`-byte header holds a `lengthWidth`-byte length at `lengthOffset`,
    /// in `endianness`; the other settings default to the common case (the length counts the
    /// payload, is inserted before it, up to 65,535 bytes, no trailer).
    public init(headerSize: Int, lengthOffset: Int = 0, lengthWidth: Int, endianness: Endianness,
                lengthCounts: LengthCounts = .payload, maximumPayloadLength: Int = 65_535,
                lengthField: LengthField = .insert, trailer: FrameTrailer? = nil) {
        self.headerSize = headerSize
        self.lengthOffset = lengthOffset
        self.lengthWidth = lengthWidth
        self.endianness = endianness
        self.lengthCounts = lengthCounts
        self.maximumPayloadLength = maximumPayloadLength
        self.lengthField = lengthField
        self.trailer = trailer
    }

    /// Bytes of the trailer (0 without one).
    package var trailerWidth: Int { trailer?.width ?? 0 }

    /// Bytes of the trailer the length field counts.
    var countedTrailerWidth: Int { trailer?.countedInLength == true ? trailerWidth : 0 }

    /// Header bytes a message must hold: all of them with `.overlay`, all but the length's with
    /// `.insert`.
    package var headerBytesInMessage: Int {
        lengthField == .overlay ? headerSize : headerSize - lengthWidth
    }
}
