/// The airtime model of one BLE connection: which LL packets fit in a connection event, and
/// the most payload the PHY could carry. Pure: `ConnectionEventScheduler` runs the simulated
/// link on it, and the benchmarks compute their limits from it.
///
/// - ATT PDUs travel through L2CAP (a 4-byte basic header, Core Vol 3, Part A, 3.1) and are
///   fragmented into LL data PDUs of at most `dataLength` payload bytes (the negotiated
///   connMaxTxOctets, 27...251; Vol 6, Part B, 4.5.10).
/// - A connection event is a run of packet pairs: the central sends (data or an empty PDU),
///   the peripheral answers T_IFS later (data or empty), and the next pair starts T_IFS after
///   that (Vol 6, Part B, 4.5.1). A pair costs TX airtime + T_IFS + RX airtime + T_IFS.
/// - Pairs go while they fit in the event length (the controller's reservation for the
///   connection, at most the connection interval); the first pair of an event always goes.
///   At most `maxPacketsPerEvent` data PDUs go each way (a controller's buffer limit).
/// - An ATT PDU may be split across events (the controller sends LL fragments as they fit).
public struct LinkAirtime: Sendable, Hashable {
    package static let l2capHeader = 4

    /// The PHY packets are sent on.
    public var phy: LinkPHY
    /// The largest LL payload, 27...251.
    public var dataLength: Int
    /// Encrypted links add a 4-byte MIC to every non-empty PDU.
    package var encrypted: Bool
    /// Time between the starts of two connection events.
    public var connectionInterval: Duration
    /// The controller's event length; the event cannot outlast the interval.
    public var eventLength: Duration
    /// A cap on LL data PDUs each way per event.
    public var maxPacketsPerEvent: Int

    /// An airtime model; `eventLength` nil: the whole interval; no packet cap unless given.
    public init(phy: LinkPHY = .le1M, dataLength: Int = 251, encrypted: Bool = false,
                connectionInterval: Duration, eventLength: Duration? = nil, maxPacketsPerEvent: Int = .max) {
        self.phy = phy
        self.dataLength = dataLength
        self.encrypted = encrypted
        self.connectionInterval = connectionInterval
        self.eventLength = min(eventLength ?? connectionInterval, connectionInterval)
        self.maxPacketsPerEvent = max(1, maxPacketsPerEvent)
    }

    /// The LL payload sizes an ATT PDU of `attBytes` bytes goes out as, in order.
    public func fragments(ofATTPDU attBytes: Int) -> [Int] {
        var remaining = attBytes + Self.l2capHeader
        var sizes: [Int] = []
        while remaining > 0 {
            sizes.append(min(dataLength, remaining))
            remaining -= dataLength
        }
        return sizes
    }

    /// One TX/RX pair: the central's packet (`central` payload bytes, 0 for an empty PDU), T_IFS,
    /// the peripheral's, T_IFS.
    public func pairTime(central: Int, peripheral: Int) -> Duration {
        phy.packetAirtime(payload: central, encrypted: encrypted) + LinkPHY.interFrameSpace
            + phy.packetAirtime(payload: peripheral, encrypted: encrypted) + LinkPHY.interFrameSpace
    }

    /// What one connection event carries.
    package struct EventPlan: Sendable, Equatable {
        /// How many of the central's queued LL PDUs go, from the front.
        package var centralPackets: Int
        /// How many of the peripheral's.
        package var peripheralPackets: Int
        /// The event's airtime, pairs and their inter frame spaces.
        public var airtime: Duration
    }

    /// Packs one event: `central` and `peripheral` are the LL payload sizes each side has
    /// queued, in order; the n-th packet of each side goes in the n-th pair (the side with
    /// fewer sends empty PDUs).
    package func planEvent(central: [Int], peripheral: [Int]) -> EventPlan {
        let centralLimit = min(central.count, maxPacketsPerEvent)
        let peripheralLimit = min(peripheral.count, maxPacketsPerEvent)
        var plan = EventPlan(centralPackets: 0, peripheralPackets: 0, airtime: .zero)
        while plan.centralPackets < centralLimit || plan.peripheralPackets < peripheralLimit {
            let sent = plan.centralPackets < centralLimit ? central[plan.centralPackets] : nil
            let answered = plan.peripheralPackets < peripheralLimit ? peripheral[plan.peripheralPackets] : nil
            let pair = pairTime(central: sent ?? 0, peripheral: answered ?? 0)
            if plan.airtime > .zero, plan.airtime + pair > eventLength { break }
            plan.airtime += pair
            if sent != nil { plan.centralPackets += 1 }
            if answered != nil { plan.peripheralPackets += 1 }
        }
        return plan
    }

    /// Full-size LL data PDUs one event carries one way (empty PDUs back): the slots the
    /// protocol ceilings count in.
    package var fullPacketsPerEvent: Int {
        planEvent(central: Array(repeating: dataLength, count: 4096), peripheral: []).centralPackets
    }

    /// The physical limit: the most attribute-value bytes per second the PHY could carry one
    /// way in ATT PDUs of at most `mtu` bytes. For each ATT PDU size s (4...mtu), value bytes
    /// s - 3 take the airtime of its LL fragments, each in a pair with an empty PDU back, and
    /// the link owns `eventLength` of every `connectionInterval`:
    ///     limit(s) = (s - 3) / T(s) * eventLength / connectionInterval,
    /// T(s) = sum over fragments f of pairTime(f, 0); or, when one pair outlasts the event
    /// (a slow PHY, a short event), one pair per event: (s - 3) / (fragments * interval). The
    /// limit is the best s. It ignores how whole pairs fit in an event and the
    /// packets-per-event cap, so no schedule on this link can beat it.
    public func physicalLimit(mtu: Int) -> Double {
        let share = seconds(eventLength) / seconds(connectionInterval)
        var best = 0.0
        for size in 4...max(4, mtu) {
            let pieces = fragments(ofATTPDU: size)
            let airtime = pieces.reduce(0.0) { $0 + seconds(pairTime(central: $1, peripheral: 0)) }
            let fluid = Double(size - 3) / airtime * share
            let onePairPerEvent = Double(size - 3) / (Double(pieces.count) * seconds(connectionInterval))
            best = max(best, fluid, onePairPerEvent)
        }
        return best
    }

    /// The steady rate of write commands (or notifications) of `mtu` bytes through
    /// `planEvent`, one way, every pair answered by an empty PDU: bytes per second.
    package func streamingRate(mtu: Int, events: Int = 64) -> Double {
        let pieces = fragments(ofATTPDU: mtu)
        var queue: [Int] = []
        var delivered = 0
        var sentInCurrent = 0
        for _ in 0..<events {
            while queue.count < 4096 { queue += pieces }
            let plan = planEvent(central: queue, peripheral: [])
            queue.removeFirst(plan.centralPackets)
            sentInCurrent += plan.centralPackets
            delivered += sentInCurrent / pieces.count
            sentInCurrent %= pieces.count
        }
        return Double(delivered * (mtu - 3)) / (Double(events) * seconds(connectionInterval))
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
