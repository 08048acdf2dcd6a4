#if canImport(Glibc)
import Glibc
#endif
import DFUWire

/// A bound UDP socket as the device end of a simulated UDP device (`dfukit sim serve --udp`):
/// it receives datagrams from any client, and each send replies to the client whose datagram
/// was received last.
public final class UDPServerWire: ByteWire {
    /// The address the socket is bound to: `127.0.0.1:1337`.
    public let localAddress: String
    /// The port it is bound to (the one the kernel chose when 0 was asked for).
    public let port: UInt16
    private let clock: WireClock
    private let writeTimeout: Duration
    private let pump: DescriptorPump
    /// Closed once; reads, writes and the close itself, as every descriptor-backed wire does them.
    private lazy var core = PumpedWireCore(pump: pump, clock: clock, name: description)
    private var replyAddress: SocketAddress?

    /// A socket bound to `port` on `host` (127.0.0.1 by default; `::` for every address, IPv4
    /// too where the system allows). Port 0 lets the kernel choose one (see `port`).
    /// - Throws: `.unavailable` when the address does not resolve or is in use.
    public convenience init(port: UInt16, host: String = "127.0.0.1", clock: WireClock = WireClock()) throws(WireError) {
        try self.init(port: port, host: host, clock: clock, syscalls: SystemWireSyscalls())
    }

    /// A socket bound through `syscalls`.
    package init(port: UInt16, host: String, clock: WireClock, writeTimeout: Duration = .seconds(2),
                 syscalls: any WireSyscalls) throws(WireError) {
        let asked = UDPAddress(host: host, port: port)
        let (descriptor, bound) = try DatagramSocket.open(asked, attaching: .bind, name: "udp server \(asked)", syscalls: syscalls)
        self.localAddress = bound.description
        self.port = bound.port
        self.clock = clock
        self.writeTimeout = writeTimeout
        do {
            pump = try DescriptorPump(descriptor: descriptor, style: .boundDatagram, name: "udp server \(bound)",
                                      readSize: 65535, syscalls: syscalls)
        } catch {
            syscalls.close(descriptor)
            throw error
        }
    }

    deinit { pump.requestClose() }

    /// The client whose datagram was received last (`127.0.0.1:40000`): where sends go.
    public var lastClient: String? { replyAddress?.description }

    /// `.datagram`.
    public var kind: WireKind { .datagram }
    /// `udp server 127.0.0.1:1337`.
    public var description: String { "udp server \(localAddress)" }
    /// The time since the clock's origin.
    public var now: Duration { clock.now }
    /// nil: UDP has no line rate.
    public var lineRate: Int? { nil }

    /// Sends `bytes` as one datagram to the client of the last datagram received.
    /// - Throws: `.unavailable` before any client sent one.
    public func send(_ bytes: [UInt8]) async throws(WireError) {
        guard let replyAddress else {
            if core.closed { throw WireError(.closed, wire: description, detail: "the wire is closed") }
            throw WireError(.unavailable, wire: description,
                            detail: "no client has sent a datagram yet, so there is no one to reply to")
        }
        try await core.send(bytes, to: replyAddress, timeout: writeTimeout)
    }

    /// The next datagram from any client, or nil once `deadline` passed; its sender is where
    /// the next sends go.
    public func receive(until deadline: Duration) async throws(WireError) -> [UInt8]? {
        guard let (bytes, sender) = try await core.receive(until: deadline) else { return nil }
        if let sender { replyAddress = sender }
        return bytes
    }

    /// Sleeps on the wire's clock.
    public func sleep(until deadline: Duration) async {
        await clock.sleep(until: deadline)
    }

    /// Closes the socket (once).
    public func close() async {
        guard await core.close() else { return }
    }

}
