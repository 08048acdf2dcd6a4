/// Cuts a frame into GATT writes (or notifications) no longer than the link allows.
package enum Segmenter {
    /// The ATT header taken from every write or notification: 1-byte opcode + 2-byte handle.
    package static let attHeaderSize = 3

    /// The most bytes one ATT write or notification carries for a given ATT_MTU (MTU - 3;
    /// 20 for the LE default MTU of 23).
    package static func attPayloadSize(mtu: Int) -> Int {
        precondition(mtu > attHeaderSize, "an ATT_MTU of \(mtu) leaves no room for data")
        return mtu - attHeaderSize
    }

    /// Splits `frame` into consecutive pieces of at most `maximumSize` bytes, all full-size but
    /// the last. An empty frame yields one empty write, so that "send this frame" always
    /// produces at least one write.
    package static func segments(of frame: [UInt8], maximumSize: Int) -> [[UInt8]] {
        precondition(maximumSize > 0, "segment size must be positive, got \(maximumSize)")
        guard !frame.isEmpty else { return [[]] }
        return stride(from: 0, to: frame.count, by: maximumSize).map { start in
            Array(frame[start..<Swift.min(start + maximumSize, frame.count)])
        }
    }
}
