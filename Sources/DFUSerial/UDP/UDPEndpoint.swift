import DFUWire

/// A device at a UDP address (`udp:HOST:PORT`): each open makes a new connected socket, so a
/// device that reset, or moved to another address of the same name, is reached again.
public final class UDPEndpoint: WireEndpoint {
    /// The device's address.
    public let address: UDPAddress
    private let clock: WireClock
    private let syscalls: any WireSyscalls

    /// The device at `address`, on `clock` (the wires it opens share it).
    public convenience init(address: UDPAddress, clock: WireClock = WireClock()) {
        self.init(address: address, clock: clock, syscalls: SystemWireSyscalls())
    }

    /// The device at `address`, reached through `syscalls`.
    package init(address: UDPAddress, clock: WireClock, syscalls: any WireSyscalls) {
        self.address = address
        self.clock = clock
        self.syscalls = syscalls
    }

    /// `127.0.0.1:1337`.
    public var description: String { address.description }

    /// The time since the clock's origin.
    public var now: Duration { clock.now }

    /// A socket connected to the address.
    /// - Throws: `.unavailable` when the host does not resolve or cannot be reached.
    public func open() async throws(WireError) -> any ByteWire {
        try UDPWire(address: address, clock: clock, syscalls: syscalls)
    }

    /// Sleeps on the endpoint's clock.
    public func sleep(until deadline: Duration) async {
        await clock.sleep(until: deadline)
    }
}
