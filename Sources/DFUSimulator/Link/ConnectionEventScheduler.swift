/// The discrete-event model of one BLE connection, on a virtual clock.
///
/// Connection events happen every `connectionInterval` from the moment the link is up. In each
/// event at most `packetsPerEvent` PDUs go from central to peripheral, then at most
/// `packetsPerEvent` from peripheral to central. Every ATT PDU takes one packet slot. Anything
/// the peripheral sends in answer to a PDU goes out no earlier than the next connection event
/// after the one in which that PDU arrived, and no earlier than the device is done processing
/// it (`PeripheralOutput.readyAt`). The central's queued PDUs go out at the next event, so a
/// central reacting to a PDU received in event k answers in event k+1: a write with response
/// therefore costs two connection intervals, as on real links.
struct ConnectionEventScheduler {
    private struct PendingOutput {
        var output: PeripheralOutput
        var arrivedAt: Duration
    }

    let settings: LinkSettings
    /// Events happen at `anchor + k * interval`.
    private let anchor: Duration
    private(set) var nextEventAt: Duration
    private var toPeripheral: [SimulatedPDU] = []
    private var toCentral: [PendingOutput] = []

    init(settings: LinkSettings, connectedAt: Duration) {
        self.settings = settings
        self.anchor = connectedAt
        self.nextEventAt = connectedAt + settings.connectionInterval
    }

    var queuedToPeripheral: Int { toPeripheral.count }
    var hasTraffic: Bool { !toPeripheral.isEmpty || !toCentral.isEmpty }

    mutating func enqueueFromCentral(_ pdu: SimulatedPDU) {
        toPeripheral.append(pdu)
    }

    mutating func enqueueFromPeripheral(_ output: PeripheralOutput, arrivedAt: Duration) {
        toCentral.append(PendingOutput(output: output, arrivedAt: arrivedAt))
    }

    /// The time of the next event that has something to carry, skipping idle events; nil when
    /// nothing is queued.
    mutating func nextBusyEvent(notBefore now: Duration) -> Duration? {
        if nextEventAt <= now { nextEventAt = firstEvent(after: now) }
        if !toPeripheral.isEmpty { return nextEventAt }
        // Whichever output is ready first, not the oldest: a slow answer must not hold back a
        // write response (or a quicker answer) queued after it.
        guard let earliest = toCentral.map({ max($0.output.readyAt, $0.arrivedAt + .nanoseconds(1)) }).min() else {
            return nil
        }
        if earliest > nextEventAt { nextEventAt = firstEvent(atOrAfter: earliest) }
        return nextEventAt
    }

    /// The central's PDUs that go out in the event at `nextEventAt`, in order. The caller
    /// delivers them to the peripheral, then collects the peripheral's packets.
    mutating func takeCentralPackets() -> [SimulatedPDU] {
        let count = min(settings.packetsPerEvent, toPeripheral.count)
        let sent = Array(toPeripheral.prefix(count))
        toPeripheral.removeFirst(count)
        return sent
    }

    /// The peripheral's PDUs that may go out in the event at `time`: those ready by then, in
    /// the order they were queued; outputs still being processed stay queued without blocking
    /// the ones behind them.
    mutating func takePeripheralPackets(at time: Duration) -> [PeripheralOutput] {
        var sent: [PeripheralOutput] = []
        var index = 0
        while sent.count < settings.packetsPerEvent, index < toCentral.count {
            let pending = toCentral[index]
            guard pending.arrivedAt < time, pending.output.readyAt <= time else {
                index += 1
                continue
            }
            sent.append(pending.output)
            toCentral.remove(at: index)
        }
        return sent
    }

    mutating func finishEvent() {
        nextEventAt += settings.connectionInterval
    }

    mutating func dropEverything() {
        toPeripheral.removeAll()
        toCentral.removeAll()
    }

    private func firstEvent(after time: Duration) -> Duration {
        firstEvent(atOrAfter: time + .nanoseconds(1))
    }

    private func firstEvent(atOrAfter time: Duration) -> Duration {
        let interval = settings.connectionInterval
        let elapsed = time - anchor
        var count = max(Int(elapsed / interval), 1)
        while anchor + interval * count < time { count += 1 }
        while count > 1, anchor + interval * (count - 1) >= time { count -= 1 }
        return anchor + interval * count
    }
}
