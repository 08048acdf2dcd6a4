#if canImport(Glibc)
import Glibc
#endif
import DFUWire

/// A UDP socket connected to one device as a datagram wire: each send is one datagram, each
/// receive one datagram (up to 65535 bytes), as Zephyr's SMP UDP transport carries one message
/// per datagram.
///
/// When nothing listens at the address, the kernel learns it from an ICMP port unreachable and
/// the next receive (or send) fails with `.unavailable` saying so; the wire stays open, since
/// the device may be up by the next try.
public final class UDPWire: ByteWire {
    /// The address asked for.
    public let address: UDPAddress
    /// The address the socket is connected to: `127.0.0.1:1337`.
    public let peer: String
    private let clock: WireClock
    private let writeTimeout: Duration
    private let pump: DescriptorPump
    /// Closed once; reads, writes and the close itself, as every descriptor-backed wire does them.
    private lazy var core = PumpedWireCore(pump: pump, clock: clock, name: description)

    /// A socket connected to `address` (its first address getaddrinfo gives that a socket can
    /// be connected to).
    /// - Throws: `.unavailable` when the host does not resolve or no socket can be made.
    public convenience init(address: UDPAddress, clock: WireClock = WireClock()) throws(WireError) {
        try self.init(address: address, clock: clock, syscalls: SystemWireSyscalls())
    }

    /// A socket made through `syscalls`.
    package init(address: UDPAddress, clock: WireClock, writeTimeout: Duration = .seconds(2),
                 syscalls: any WireSyscalls) throws(WireError) {
        let name = "udp \(address)"
        let (descriptor, peer) = try DatagramSocket.open(address, attaching: .connect, name: name, syscalls: syscalls)
        self.address = address
        self.peer = peer.description
        self.clock = clock
        self.writeTimeout = writeTimeout
        let shownPeer = peer.description == address.description ? address.description : "\(address) (\(peer))"
        do {
            pump = try DescriptorPump(descriptor: descriptor, style: .connectedDatagram, name: name, readSize: 65535,
                                      refusedDetail: "nothing listens on \(shownPeer) (ICMP port unreachable); "
                                          + "is the device up, with its UDP server on port \(address.port)?",
                                      syscalls: syscalls)
        } catch {
            syscalls.close(descriptor)
            throw error
        }
    }

    deinit { pump.requestClose() }

    /// `.datagram`.
    public var kind: WireKind { .datagram }
    /// `udp 127.0.0.1:1337`.
    public var description: String { "udp \(address)" }
    /// The time since the clock's origin.
    public var now: Duration { clock.now }
    /// nil: UDP has no line rate.
    public var lineRate: Int? { nil }

    /// Sends `bytes` as one datagram.
    public func send(_ bytes: [UInt8]) async throws(WireError) {
        try await core.send(bytes, timeout: writeTimeout)
    }

    /// The next datagram, or nil once `deadline` passed.
    /// - Throws: `.unavailable` when nothing listens at the address (the wire stays open).
    public func receive(until deadline: Duration) async throws(WireError) -> [UInt8]? {
        try await core.receive(until: deadline)?.bytes
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
