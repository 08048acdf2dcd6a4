/// A checksum after the payload of every frame, over the header and the payload (the frame
/// before it), written in the framing's byte order.
public struct FrameTrailer: Sendable, Hashable {
    /// The checksum the trailer holds.
    public var checksum: FrameChecksum
    /// Whether the length field counts the trailer's bytes (with the payload, or the frame).
    package var countedInLength: Bool

    /// A trailer holding `checksum`; `countedInLength`: the length field counts its bytes.
    public init(checksum: FrameChecksum, countedInLength: Bool = false) {
        self.checksum = checksum
        self.countedInLength = countedInLength
    }

    /// The trailer's size in bytes.
    public var width: Int { checksum.width }
}
