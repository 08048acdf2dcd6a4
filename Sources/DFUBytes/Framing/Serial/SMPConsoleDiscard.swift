/// An SMP console frame, or a packet in progress, that `SMPConsoleDecoder` dropped: why, and
/// where in the stream it was fed.
public struct SMPConsoleDiscard: Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: Sendable, Hashable {
        /// The frame's text is not base64: the character at stream offset `offset` cannot stand
        /// there, or a last 4-character group that is cut short begins there.
        case badBase64(offset: Int)
        /// A packet's first frame decodes to `decodedByteCount` bytes, fewer than the 2 of the
        /// total length.
        case startFrameWithoutLength(decodedByteCount: Int)
        /// The total length is `announced`, less than the 2 bytes of the CRC it counts.
        case announcedLengthTooSmall(announced: Int)
        /// The total length announces a packet of `announced` bytes (CRC not counted), more than
        /// the decoder's `limit`.
        case announcedLengthTooLarge(announced: Int, limit: Int)
        /// The frames decode to `decoded` bytes after the total length, more than the
        /// `announced` total length.
        case lengthDisagreement(announced: Int, decoded: Int)
        /// The packet's CRC-16/XMODEM is `received`, its bytes give `computed`.
        case checksumMismatch(received: UInt16, computed: UInt16)
        /// A continuation frame (`04 14`) came with no packet in progress.
        case continuationWithoutStart
        /// A frame runs past `limit` bytes (marker and newline included) without its newline;
        /// the rest of it is skipped.
        case overlongFrame(limit: Int)
        /// A new first frame (`06 09`) came while a packet had `decoded` of its `announced`
        /// bytes (total length: packet and CRC).
        case abandonedForNewPacket(decoded: Int, announced: Int)
    }

    /// What was wrong.
    public let reason: Reason
    /// Stream offset (bytes fed before it) of the marker of the frame that showed the problem.
    public let frameOffset: Int
    /// Stream offset of the first frame of the packet dropped with it; nil when no packet was in
    /// progress.
    public let packetOffset: Int?

    /// A discard for `reason` of the frame at `frameOffset` and of the packet at `packetOffset`.
    public init(reason: Reason, frameOffset: Int, packetOffset: Int?) {
        self.reason = reason
        self.frameOffset = frameOffset
        self.packetOffset = packetOffset
    }

    /// Describes the discard, e.g. "SMP console frame at stream byte 130 discarded: packet CRC
    /// is 0x1234, its bytes give 0x5678 (packet from byte 0 dropped)".
    public var description: String {
        "SMP console frame at stream byte \(frameOffset) discarded: \(what)"
            + (packetOffset.map { " (packet from byte \($0) dropped)" } ?? "")
    }

    private var what: String {
        switch reason {
        case let .badBase64(offset):
            return "not base64 at byte \(offset)"
        case let .startFrameWithoutLength(count):
            return "the first frame decodes to \(count) bytes, too few for the 2-byte total length"
        case let .announcedLengthTooSmall(announced):
            return "total length \(announced) is less than the 2 bytes of CRC it counts"
        case let .announcedLengthTooLarge(announced, limit):
            return "total length announces a \(announced)-byte packet, above the limit of \(limit)"
        case let .lengthDisagreement(announced, decoded):
            return "the frames decode to \(decoded) bytes, more than the total length \(announced)"
        case let .checksumMismatch(received, computed):
            return "packet CRC is 0x\(hex(received)), its bytes give 0x\(hex(computed))"
        case .continuationWithoutStart:
            return "continuation frame (04 14) with no packet in progress"
        case let .overlongFrame(limit):
            return "longer than \(limit) bytes without a newline"
        case let .abandonedForNewPacket(decoded, announced):
            return "a new packet starts while \(decoded) of \(announced) bytes had arrived"
        }
    }

    private func hex(_ value: UInt16) -> String {
        [UInt8(value >> 8), UInt8(value & 0xFF)].hexString
    }
}
