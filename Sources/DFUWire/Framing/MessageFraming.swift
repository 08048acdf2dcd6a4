/// How whole messages are carried on a wire: encoded into the bytes sent, and found again in
/// the bytes received. A pure value (no I/O, no clock): the link feeds it what arrived.
public protocol MessageFraming: Sendable {
    /// The name a profile uses for it: `smp-console`, `smp-raw`, `slip`, `datagram`.
    var name: String { get }
    /// The bytes that carry `message` (for a datagram wire: the one datagram).
    func encode(_ message: [UInt8]) -> [UInt8]
    /// Feeds bytes that arrived (for a datagram wire: one datagram); returns what they completed.
    mutating func decode(_ bytes: [UInt8]) -> [FramingOutput]
    /// The line was idle for longer than a message may pause: a partial message is dropped
    /// (what a raw UART receiver does after its input timeout). The default does nothing.
    mutating func lineWentIdle() -> [FramingOutput]
}

extension MessageFraming {
    /// Nothing to drop.
    public mutating func lineWentIdle() -> [FramingOutput] { [] }
}

/// What a framing found in the bytes it was fed.
public enum FramingOutput: Sendable, Equatable {
    /// A whole message.
    case message([UInt8])
    /// Text that is not a message: log lines of a console that also carries messages.
    case text(String)
    /// Bytes that looked like a message but were not one (a checksum that did not verify, a
    /// bad escape, a length that disagrees), with what was wrong.
    case discarded(String)
}

/// One message per datagram: the framing of UDP (Zephyr's `smp_udp.c` sends one SMP message
/// per datagram).
public struct DatagramFraming: MessageFraming {
    /// A framing that passes messages through whole.
    public init() {}
    /// `datagram`.
    public var name: String { "datagram" }
    /// The message itself.
    public func encode(_ message: [UInt8]) -> [UInt8] { message }
    /// The datagram is one message; an empty one carries none.
    public mutating func decode(_ bytes: [UInt8]) -> [FramingOutput] {
        bytes.isEmpty ? [] : [.message(bytes)]
    }
}
