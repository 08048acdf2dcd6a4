/// Rebuilds length-prefixed frames from a stream of notifications, which may split a frame at
/// any byte (even inside its header) or carry several frames at once.
///
/// Pure: no I/O, no clock. Feed each notification to `append(_:)` and handle the complete frames
/// it returns, header and trailer included (`LengthHeaderFormat.message(ofFrame:)` checks the
/// trailer and gives the message).
package struct Reassembler: Sendable {
    package let format: LengthHeaderFormat

    /// Bytes of the frame in progress.
    private var buffer: [UInt8] = []
    /// Stream offset of `buffer[0]`: bytes ever passed to `append` since `init`, less those
    /// still buffered. Kept across `reset()` so that errors locate bytes in the whole stream.
    private var bufferStartOffset = 0

    package init(format: LengthHeaderFormat) {
        self.format = format
    }

    /// Bytes received that do not yet form a complete frame.
    package var bufferedByteCount: Int { buffer.count }

    /// Total bytes passed to `append` since `init`.
    package var streamByteCount: Int { bufferStartOffset + buffer.count }

    /// Drops any partial frame (the stream offset keeps counting).
    package mutating func reset() {
        bufferStartOffset += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// Adds one notification and returns the frames it completes, in order.
    ///
    /// Throws when a header announces an impossible length; the reassembler is then reset, and
    /// every byte buffered so far is discarded with it, including frames completed earlier in
    /// the same notification (no later byte can be trusted to start a frame).
    package mutating func append(_ notification: [UInt8]) throws(FramingError) -> [[UInt8]] {
        try format.validate()
        buffer.append(contentsOf: notification)
        var frames: [[UInt8]] = []
        var start = 0
        while let length = format.announcedLength(inHeader: buffer[start...]) {
            let frameLength: Int
            do throws(FramingError) {
                frameLength = try checkedFrameLength(announced: length, streamOffset: bufferStartOffset + start)
            } catch {
                reset()
                throw error
            }
            guard buffer.count - start >= frameLength else { break }
            frames.append(Array(buffer[start..<start + frameLength]))
            start += frameLength
        }
        buffer.removeFirst(start)
        bufferStartOffset += start
        return frames
    }

    /// The whole frame's length for an announced length, or an error if the peer cannot mean it.
    /// The length counts the payload, plus the header when it counts the frame, plus the trailer
    /// when it counts it; an uncounted trailer follows the counted bytes.
    private func checkedFrameLength(announced: Int, streamOffset: Int) throws(FramingError) -> Int {
        let countedBesidesPayload = (format.lengthCounts == .frame ? format.headerSize : 0) + format.countedTrailerWidth
        guard announced >= countedBesidesPayload else {
            throw .announcedLengthTooSmall(announced: announced, minimum: countedBesidesPayload,
                                           streamOffset: streamOffset)
        }
        let limit = format.maximumPayloadLength + countedBesidesPayload
        guard announced <= limit else {
            throw .announcedLengthTooLarge(announced: announced, limit: limit, streamOffset: streamOffset)
        }
        let payloadLength = announced - countedBesidesPayload
        return format.headerSize + payloadLength + format.trailerWidth
    }
}
