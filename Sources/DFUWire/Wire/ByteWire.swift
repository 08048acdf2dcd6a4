/// A serial line, a pseudo-terminal, a USB CDC-ACM port or a UDP socket, as the engine sees it:
/// bytes (or datagrams) out, bytes (or datagrams) in, a clock.
///
/// Time is the wire's own clock (`now`): virtual for a simulated wire, wall-clock otherwise.
/// Deadlines passed in are on that clock. A wire is used by one task at a time.
public protocol ByteWire: AnyObject {
    /// A stream of bytes, or datagrams kept whole.
    var kind: WireKind { get }
    /// What the wire is, for messages: `/dev/ttyACM0 at 115200 baud`, `udp 127.0.0.1:1337`.
    var description: String { get }
    /// The wire clock, from an arbitrary origin.
    var now: Duration { get }
    /// Bytes per second the line carries, when it is a line with a rate (a UART); nil for a
    /// pseudo-terminal, USB CDC-ACM (whose baud rate is a label) and UDP.
    var lineRate: Int? { get }

    /// Sends `bytes`: appended to a stream, or one datagram. Returns once the wire took them
    /// (a serial port's driver buffer may still hold them).
    func send(_ bytes: [UInt8]) async throws(WireError)
    /// What arrived next: whatever bytes a stream had (at least one), or one datagram; nil once
    /// `deadline` passed with nothing.
    func receive(until deadline: Duration) async throws(WireError) -> [UInt8]?
    /// Lets time pass on the wire clock.
    func sleep(until deadline: Duration) async
    /// Closes the wire; later calls fail with `.closed`.
    func close() async
}

/// Whether a wire carries a byte stream or datagrams.
public enum WireKind: String, Sendable, Hashable {
    /// Bytes in order, with no message boundaries: a UART, a pseudo-terminal, USB CDC-ACM.
    case stream
    /// Whole datagrams, each one message: UDP.
    case datagram
}

/// What went wrong on a wire: what and where.
public struct WireError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: Sendable, Equatable {
        /// The wire is closed, or the port went away (a device that reset dropped its USB port).
        case closed
        /// The port or socket could not be opened or configured.
        case unavailable
        /// A read or write failed.
        case io
    }

    /// The kind of failure.
    public var kind: Kind
    /// The wire, e.g. `/dev/ttyACM0`.
    public var wire: String
    /// What failed and what to do.
    public var detail: String

    /// An error on `wire`.
    public init(_ kind: Kind, wire: String, detail: String) {
        self.kind = kind
        self.wire = wire
        self.detail = detail
    }

    /// `WIRE: DETAIL`.
    public var description: String { "\(wire): \(detail)" }
}
