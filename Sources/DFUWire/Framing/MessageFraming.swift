/// How whole messages are carried on a wire: encoded into the bytes sent, and found again in
/// the bytes received. A pure value (no I/O, no clock): the link feeds it what arrived.
public protocol MessageFraming: Sendable {
    /// The name a profile uses for it: `smp-console`, `smp-raw`, `slip`, `datagram`.
    var name: String { get }
    /// The largest message it carries.
    var largestMessage: Int { get }
    /// The bytes that carry `message` (for a datagram wire: the one datagram).
    /// - Throws: when the framing cannot carry it (longer than `largestMessage`).
    func encode(_ message: [UInt8]) throws(FramingRefusal) -> [UInt8]
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

/// Why a framing cannot carry a message.
public struct FramingRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. "a 70000-byte message is longer than smp-console's 65533".
    public var description: String

    /// A refusal saying `description`.
    public init(_ description: String) {
        self.description = description
    }
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
    /// 65507: the most a UDP datagram carries over IPv4.
    public var largestMessage: Int { 65507 }
    /// The message itself.
    public func encode(_ message: [UInt8]) throws(FramingRefusal) -> [UInt8] {
        guard message.count <= largestMessage else {
            throw FramingRefusal("a \(message.count)-byte message is longer than a UDP datagram carries (\(largestMessage))")
        }
        return message
    }
    /// The datagram is one message; an empty one carries none.
    public mutating func decode(_ bytes: [UInt8]) -> [FramingOutput] {
        bytes.isEmpty ? [] : [.message(bytes)]
    }
}
