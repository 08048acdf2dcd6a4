import DFUSimulator
import DFUWire

/// A simulated device served on a real wire, on the wall clock: the device end of a
/// pseudo-terminal or a UDP server socket, for clients DFUKit did not write (smpmgr,
/// mcumgr-toolkit, nrfutil) and for `dfukit` itself (`dfukit sim serve`).
///
/// The line costs what its `SimulatedWireLink` says in both directions: bytes a client writes
/// reach the device only after their time on the line (10 bits a byte at the baud rate), and
/// the device's answers leave once ready and arrive after theirs, so a client's times are the
/// line's, not the pseudo-terminal's. The device's timers (a reset 250 ms after its answer, a
/// boot) run on the same clock; bytes that arrive while it reboots are lost, as on a UART.
public final class WireDeviceServer {
    /// The device served.
    public let device: any SimulatedWirePeripheral
    private let wire: any ByteWire
    private let link: SimulatedWireLink
    /// Told after every chunk of bytes the device received (to save its memory, say).
    private let onReceived: () -> Void
    /// Told at every turn of the loop (at least twice a second): the service that runs the
    /// server writes its report then, on the server's own task.
    var onTurn: () -> Void = {}
    /// Answers not yet delivered: when their last byte arrives at the client, in order.
    private var outgoing: [(at: Duration, bytes: [UInt8])] = []
    /// When the line into the device and the line out of it are free again.
    private var inboundFree: Duration = .zero
    private var outboundFree: Duration = .zero
    /// Bytes carried each way, for statistics.
    public private(set) var bytesReceived = 0, bytesSent = 0

    /// Serves `device` on `wire` (the device end), costing what `link` says.
    public init(device: any SimulatedWirePeripheral, wire: any ByteWire, link: SimulatedWireLink,
                onReceived: @escaping () -> Void = {}) {
        self.device = device
        self.wire = wire
        self.link = link
        self.onReceived = onReceived
    }

    /// Serves until the task is cancelled.
    /// - Throws: when the wire fails for good (not when a client goes away).
    public func run() async throws(WireError) {
        device.shiftClock(by: wire.now)
        inboundFree = wire.now
        outboundFree = wire.now
        while !Task.isCancelled {
            runTimers()
            try await deliverDue()
            onTurn()
            let wake = [device.nextTimer, outgoing.first?.at, wire.now + .milliseconds(500)].compactMap { $0 }.min()!
            guard let bytes = try await wire.receive(until: max(wake, wire.now)) else { continue }
            bytesReceived += bytes.count
            // The last byte reaches the device after the bytes' time on the line.
            let arrival = max(inboundFree, wire.now) + link.byteTime * bytes.count + link.latency
            inboundFree = arrival
            if arrival > wire.now {
                runTimers(until: arrival)
                try await deliverDue(until: arrival)
                await wire.sleep(until: arrival)
            }
            runTimers()
            guard device.isRunning else { continue }
            for output in device.receive(bytes, at: arrival) { enqueue(output) }
            onReceived()
        }
    }

    private func enqueue(_ output: WireDeviceOutput) {
        let start = max(output.readyAt, outboundFree)
        outboundFree = start + link.byteTime * output.bytes.count
        outgoing.append((outboundFree + link.latency, output.bytes))
    }

    private func runTimers(until time: Duration? = nil) {
        let limit = time ?? wire.now
        while let due = device.nextTimer, due <= limit {
            for event in device.fireTimers(at: due) {
                switch event {
                case let .output(output): enqueue(output)
                case .reset:
                    // What it was sending is cut off.
                    outgoing.removeAll()
                    outboundFree = due
                }
            }
        }
    }

    /// Sends every answer due by now (or by `time`, sleeping until each is).
    private func deliverDue(until time: Duration? = nil) async throws(WireError) {
        let limit = time ?? wire.now
        while let first = outgoing.first, first.at <= limit {
            if first.at > wire.now { await wire.sleep(until: first.at) }
            outgoing.removeFirst()
            do {
                try await wire.send(first.bytes)
                bytesSent += first.bytes.count
            } catch where error.kind != .closed {
                // No client reads the port now: the bytes are lost, as on a UART nobody listens to.
                continue
            }
        }
    }
}
