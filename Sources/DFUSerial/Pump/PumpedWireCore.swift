import DFUWire

/// What the descriptor-backed wires (a serial port, a pseudo-terminal, the UDP sockets) do alike:
/// refuse every call once closed, write through the pump with a timeout, read with a deadline on
/// the wire's clock, and close the descriptor once.
final class PumpedWireCore {
    let pump: DescriptorPump
    let clock: WireClock
    /// The wire's name in errors.
    let name: String
    private(set) var closed = false

    init(pump: DescriptorPump, clock: WireClock, name: String) {
        self.pump = pump
        self.clock = clock
        self.name = name
    }

    /// Writes all of `bytes` (to `destination`, for a bound socket) within `timeout`.
    func send(_ bytes: [UInt8], to destination: SocketAddress? = nil, timeout: Duration) async throws(WireError) {
        try checkOpen()
        try await pump.write(bytes, to: destination, timeout: timeout)
    }

    /// The next arrival and its sender, or nil once `deadline` (on the wire's clock) passed.
    func receive(until deadline: Duration) async throws(WireError) -> (bytes: [UInt8], sender: SocketAddress?)? {
        try checkOpen()
        return try await pump.receive(until: clock.instant(at: deadline))
    }

    /// Stops the reader and closes the descriptor; false when it was closed already.
    func close() async -> Bool {
        guard !closed else { return false }
        closed = true
        await pump.close()
        return true
    }

    private func checkOpen() throws(WireError) {
        if closed { throw WireError(.closed, wire: name, detail: "the wire is closed") }
    }
}
