/// A SLIP frame that `SLIPDecoder` dropped: why, and where in the stream it was fed.
public struct SLIPDiscardedFrame: Sendable, Hashable, CustomStringConvertible {
    /// What was wrong with the frame.
    public enum Reason: Sendable, Hashable {
        /// ESC was followed by `byte`, which is neither ESC_END (0xDC) nor ESC_ESC (0xDD).
        case badEscape(byte: UInt8)
        /// The frame decodes to more than `limit` bytes.
        case overlong(limit: Int)
    }

    /// What was wrong with the frame.
    public let reason: Reason
    /// Stream offset (bytes fed before it) of the frame's first byte.
    public let frameOffset: Int
    /// Stream offset of the byte that showed the problem: the byte after ESC, or the first byte
    /// past the limit.
    public let offset: Int

    /// A discard of the frame at `frameOffset` for `reason`, shown by the byte at `offset`.
    public init(reason: Reason, frameOffset: Int, offset: Int) {
        self.reason = reason
        self.frameOffset = frameOffset
        self.offset = offset
    }

    /// Describes the discarded frame, e.g. "SLIP frame at stream byte 12 discarded: ESC at byte
    /// 15 is followed by 0x41, not 0xDC or 0xDD".
    public var description: String {
        let prefix = "SLIP frame at stream byte \(frameOffset) discarded: "
        switch reason {
        case let .badEscape(byte):
            return prefix + "ESC at byte \(offset - 1) is followed by 0x\([byte].hexString), "
                + "not 0xDC or 0xDD; the rest of the frame up to the next END is skipped"
        case let .overlong(limit):
            return prefix + "it decodes to more than \(limit) bytes (byte \(offset) is past the limit); "
                + "the rest of the frame up to the next END is skipped"
        }
    }
}
