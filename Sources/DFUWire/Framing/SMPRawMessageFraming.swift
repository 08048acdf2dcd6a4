import DFUBytes

/// Raw binary SMP on a UART (`SMPRawDeframer`): a message is its 8-byte header and the body
/// its length announces, sent as is; a pause inside a message drops it (`lineWentIdle`).
public struct SMPRawMessageFraming: MessageFraming {
    private var deframer: SMPRawDeframer

    /// Messages received up to 64 KiB plus the header.
    public init() {
        deframer = SMPRawDeframer(maximumMessageLength: 0xFFFF + SMPRawDeframer.headerLength)
    }

    /// `smp-raw`.
    public var name: String { "smp-raw" }
    /// The header and a body of up to 65535 bytes.
    public var largestMessage: Int { 0xFFFF + SMPRawDeframer.headerLength }

    /// The message itself: raw SMP needs no framing beyond its own header.
    public func encode(_ message: [UInt8]) throws(FramingRefusal) -> [UInt8] {
        guard message.count >= SMPRawDeframer.headerLength else {
            throw FramingRefusal("a \(message.count)-byte message has no 8-byte SMP header to delimit it")
        }
        return message
    }

    /// Messages by their headers' lengths.
    public mutating func decode(_ bytes: [UInt8]) -> [FramingOutput] {
        deframer.feed(bytes).map(Self.output)
    }

    /// A message cut short by the pause is dropped.
    public mutating func lineWentIdle() -> [FramingOutput] {
        deframer.idle().map(Self.output)
    }

    private static func output(_ output: SMPRawDeframerOutput) -> FramingOutput {
        switch output {
        case let .message(message): .message(message)
        case let .discarded(discard): .discarded(discard.description)
        }
    }
}
