/// The discrete-event model of one BLE connection, on a virtual clock, with airtime.
///
/// Connection events happen every `connectionInterval` from the moment the link is up. Each
/// event carries the LL packet pairs that fit in its event length (`LinkAirtime.planEvent`):
/// the central's queued ATT PDUs, fragmented into LL data PDUs through L2CAP, paired with the
/// peripheral's (or empty PDUs). An ATT PDU arrives when its last fragment has; one that does
/// not fit goes on in the next event. Anything the peripheral sends in answer to a PDU goes
/// out no earlier than the next connection event after the one in which that PDU arrived, and
/// no earlier than the device is done processing it (`PeripheralOutput.readyAt`). The
/// central's queued PDUs go out at the next event, so a central reacting to a PDU received in
/// event k answers in event k+1: a write with response therefore costs two connection
/// intervals, as on real links.
struct ConnectionEventScheduler {
    private struct PendingOutput {
        var output: PeripheralOutput
        var arrivedAt: Duration
        var fragments: [Int]
    }

    private struct PendingPDU {
        var pdu: SimulatedPDU
        var fragments: [Int]
    }

    let settings: LinkSettings
    let airtime: LinkAirtime
    /// Events happen at `anchor + k * interval`.
    private let anchor: Duration
    private(set) var nextEventAt: Duration
    private var toPeripheral: [PendingPDU] = []
    private var toCentral: [PendingOutput] = []

    init(settings: LinkSettings, connectedAt: Duration) {
        self.settings = settings
        self.airtime = settings.airtime
        self.anchor = connectedAt
        self.nextEventAt = connectedAt + settings.connectionInterval
    }

    var queuedToPeripheral: Int { toPeripheral.count }
    var hasTraffic: Bool { !toPeripheral.isEmpty || !toCentral.isEmpty }

    mutating func enqueueFromCentral(_ pdu: SimulatedPDU) {
        toPeripheral.append(PendingPDU(pdu: pdu, fragments: pdu.linkLayerPayloads(on: airtime)))
    }

    mutating func enqueueFromPeripheral(_ output: PeripheralOutput, arrivedAt: Duration) {
        toCentral.append(PendingOutput(output: output, arrivedAt: arrivedAt,
                                       fragments: output.pdu.linkLayerPayloads(on: airtime)))
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

    /// Runs the event at `time` (= `nextEventAt`): the PDUs each side completes in it, in
    /// order. The peripheral's may be those ready by then, in the order they were queued;
    /// outputs still being processed stay queued without blocking the ones behind them. The
    /// caller delivers the central's to the peripheral, then the peripheral's to the central.
    mutating func takeEvent(at time: Duration) -> (central: [SimulatedPDU], peripheral: [PeripheralOutput]) {
        let eligible = toCentral.indices.filter {
            toCentral[$0].arrivedAt < time && toCentral[$0].output.readyAt <= time
        }
        let plan = airtime.planEvent(central: toPeripheral.flatMap(\.fragments),
                                     peripheral: eligible.flatMap { toCentral[$0].fragments })
        var sent: [SimulatedPDU] = []
        var remaining = plan.centralPackets
        while remaining > 0, let first = toPeripheral.first {
            let taken = min(remaining, first.fragments.count)
            remaining -= taken
            if taken == first.fragments.count {
                sent.append(first.pdu)
                toPeripheral.removeFirst()
            } else {
                toPeripheral[0].fragments.removeFirst(taken)
            }
        }
        var answered: [PeripheralOutput] = []
        var finished: [Int] = []
        remaining = plan.peripheralPackets
        for index in eligible where remaining > 0 {
            let taken = min(remaining, toCentral[index].fragments.count)
            remaining -= taken
            toCentral[index].fragments.removeFirst(taken)
            if toCentral[index].fragments.isEmpty {
                answered.append(toCentral[index].output)
                finished.append(index)
            }
        }
        for index in finished.reversed() { toCentral.remove(at: index) }
        return (sent, answered)
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
