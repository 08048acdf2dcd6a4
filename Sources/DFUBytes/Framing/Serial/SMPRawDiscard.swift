/// Bytes of a raw SMP stream that `SMPRawDeframer` dropped: why, and where in the stream.
public struct SMPRawDiscard: Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: Sendable, Hashable {
        /// The header announces a message of `announced` bytes (the 8 of the header included),
        /// more than the deframer's `limit`.
        case messageTooLong(announced: Int, limit: Int)
        /// The header's operation (the low 3 bits of byte 0) is `operation`; SMP has 0 to 3
        /// (read, read response, write, write response).
        case unknownOperation(UInt8)
        /// The line went idle with `received` bytes of a message in hand; `expected` is the
        /// length its header announced, nil when the header itself had not all arrived.
        case incompleteAtIdle(received: Int, expected: Int?)
    }

    /// What was wrong.
    public let reason: Reason
    /// Stream offset (bytes fed before it) of the first dropped byte, where the message began.
    public let messageOffset: Int
    /// How many bytes were dropped.
    public let byteCount: Int

    /// A discard for `reason` of `byteCount` bytes from stream offset `messageOffset` on.
    public init(reason: Reason, messageOffset: Int, byteCount: Int) {
        self.reason = reason
        self.messageOffset = messageOffset
        self.byteCount = byteCount
    }

    /// Describes the discard, e.g. "raw SMP message at stream byte 0 discarded (8 bytes): header
    /// announces 70008 bytes, above the limit of 384".
    public var description: String {
        let prefix = "raw SMP message at stream byte \(messageOffset) discarded (\(byteCount) bytes): "
        switch reason {
        case let .messageTooLong(announced, limit):
            return prefix + "header announces \(announced) bytes, above the limit of \(limit)"
        case let .unknownOperation(operation):
            return prefix + "header operation \(operation) is not an SMP operation (0 to 3)"
        case let .incompleteAtIdle(received, expected?):
            return prefix + "the line went idle after \(received) of the \(expected) bytes its header announced"
        case let .incompleteAtIdle(received, nil):
            return prefix + "the line went idle after \(received) of the 8 header bytes"
        }
    }
}
