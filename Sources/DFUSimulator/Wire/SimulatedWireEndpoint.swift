import DFUWire

/// A simulated serial or UDP device, as the engine reaches it: `open()` gives a `ByteWire` to
/// the device's wire end, on a virtual clock (`SimulatedWireLink` says what the line costs).
///
/// Deterministic and free-running like `SimulatedWorld`: every call moves the virtual clock only
/// as far as it must (a send to when the host's driver took the bytes, a read to when the
/// bytes are in or the deadline passed), running the device's timers on the way. On a
/// `realtime=` endpoint each call returns once the wall clock has caught up.
///
/// One wire is open at a time: opening another closes the first. Through a USB CDC-ACM link a
/// device that reboots takes its port with it: the open wire reads `.closed` and `open()`
/// throws `.unavailable` until the device is back (`WireTransport.connect` tries again).
public final class SimulatedWireEndpoint: WireEndpoint {
    /// The device at the other end.
    public let device: any SimulatedWirePeripheral
    /// What the line costs, and what a reset does to the port.
    public var link: SimulatedWireLink { line.link }
    /// The faults the line injects.
    public var faults: SimulatedWireFaults { line.faults }
    let line: SimulatedWireLine
    private let name: String
    private let pacer: WallClockPacer?
    private var openWire: SimulatedByteWire?

    /// An endpoint reaching `device` over `link`, with `faults`; free-running unless paced.
    /// - Parameter name: what the endpoint is called in messages (`sim:mcumgr-smp`).
    public init(device: any SimulatedWirePeripheral, link: SimulatedWireLink, faults: SimulatedWireFaults = SimulatedWireFaults(),
                pacing: WallClockPacing? = nil, name: String = "sim") {
        precondition(device.wireKind == link.kind,
                     "\(device.name) speaks over a \(device.wireKind.rawValue) wire, not over \(link)")
        self.device = device
        self.line = SimulatedWireLine(link: link, device: device, faults: faults)
        self.name = name
        self.pacer = pacing.map { WallClockPacer($0, virtualStart: .zero) }
    }

    /// `sim:mcumgr-smp (uart 115200 baud)`.
    public var description: String { "\(name) (\(link))" }
    /// The virtual clock.
    public var now: Duration { line.now }
    /// What went over the line so far.
    public var statistics: SimulatedWireStatistics { line.statistics }

    /// A wire to the device; one already open is closed first.
    /// - Throws: `.unavailable` while a USB device reboots (its port is not there).
    public func open() async throws(WireError) -> any ByteWire {
        let result = Result { () throws(WireError) -> any ByteWire in try openNow() }
        await keepUpWithWallClock()
        return try result.get()
    }

    private func openNow() throws(WireError) -> SimulatedByteWire {
        openWire?.markClosed()
        openWire = nil
        line.advance(to: line.now)
        if link.portGoesAwayOnReset, !device.isRunning {
            throw WireError(.unavailable, wire: description,
                            detail: "the device's USB port is not there: it is rebooting; try again once it has booted")
        }
        line.openHostEnd()
        let wire = SimulatedByteWire(endpoint: self)
        openWire = wire
        return wire
    }

    /// Lets virtual time pass with no wire open; the device's timers fire on the way.
    public func sleep(until deadline: Duration) async {
        line.advance(to: deadline)
        await keepUpWithWallClock()
    }

    /// On a `realtime=` endpoint, waits until the wall clock has caught up with the virtual clock.
    func keepUpWithWallClock() async {
        await pacer?.keepUp(with: line.now)
    }

    func wireClosed(_ wire: SimulatedByteWire) {
        guard openWire === wire else { return }
        openWire = nil
        line.closeHostEnd()
    }
}
