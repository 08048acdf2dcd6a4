/// A checksum after the payload of every frame, over the header and the payload (the frame
/// before it), written in the framing's byte order.
public struct FrameTrailer: Sendable, Hashable {
    public var checksum: FrameChecksum
    /// Whether the length field counts the trailer's bytes (with the payload, or the frame).
    public var countedInLength: Bool

    public init(checksum: FrameChecksum, countedInLength: Bool = false) {
        self.checksum = checksum
        self.countedInLength = countedInLength
    }

    public var width: Int { checksum.width }
}
