import DFUWire

/// The engine's end of a simulated wire (`SimulatedWireEndpoint.open()`).
final class SimulatedByteWire: ByteWire {
    private let endpoint: SimulatedWireEndpoint
    private var line: SimulatedWireLine { endpoint.line }
    /// The port generation it was opened in: a USB port that went away since is gone for good.
    private let generation: Int
    private var closed = false

    init(endpoint: SimulatedWireEndpoint) {
        self.endpoint = endpoint
        self.generation = endpoint.line.portGeneration
    }

    var kind: WireKind { line.link.kind }
    var description: String { endpoint.description }
    var now: Duration { line.now }
    var lineRate: Int? { line.link.lineRate }

    func send(_ bytes: [UInt8]) async throws(WireError) {
        let result = Result { () throws(WireError) in try sendNow(bytes) }
        await endpoint.keepUpWithWallClock()
        try result.get()
    }

    private func sendNow(_ bytes: [UInt8]) throws(WireError) {
        try checkOpen()
        guard !bytes.isEmpty else { return }
        let taken = line.send(bytes)
        line.advance(to: taken)
        try checkOpen()
    }

    func receive(until deadline: Duration) async throws(WireError) -> [UInt8]? {
        let result = Result { () throws(WireError) -> [UInt8]? in try receiveNow(until: deadline) }
        await endpoint.keepUpWithWallClock()
        return try result.get()
    }

    private func receiveNow(until deadline: Duration) throws(WireError) -> [UInt8]? {
        while true {
            try checkOpen()
            line.advance(to: line.now)
            try checkOpen()
            if let read = line.takeRead() { return read }
            if line.now >= deadline { return nil }
            // Wake once the burst on its way is in (a reader wakes when a burst has arrived), or
            // at the line's next event, which may bring one.
            var wake = line.nextBurstEnd ?? line.nextEventTime ?? deadline
            if wake <= line.now { wake = deadline }
            line.advance(to: min(wake, deadline))
        }
    }

    func sleep(until deadline: Duration) async {
        line.advance(to: deadline)
        await endpoint.keepUpWithWallClock()
    }

    func close() async {
        guard !closed else { return }
        closed = true
        endpoint.wireClosed(self)
    }

    /// Another wire was opened: this one is closed.
    func markClosed() {
        closed = true
    }

    private func checkOpen() throws(WireError) {
        if closed { throw WireError(.closed, wire: description, detail: "the wire is closed") }
        if line.portGeneration != generation {
            throw WireError(.closed, wire: description,
                            detail: "the device reset and its USB port went away; open the port again once it is back")
        }
    }
}
