import DFUSimulator

/// One direction of a link in the protocol ceilings: LL fragments queued in order go out in
/// connection events as `LinkAirtime.planEvent` packs them (each in a pair with an empty PDU
/// back, while the pair fits in the event length, the first pair always, at most
/// packets-per-event), so the ceilings and the simulated link count the same airtime.
struct LinkSlots {
    let airtime: LinkAirtime
    private var event = 0
    private var used: Duration = .zero
    private var packets = 0

    init(_ link: LinkSettings) {
        airtime = link.airtime
    }

    /// Queues an ATT PDU of `attBytes` that may go no earlier than event `notBefore`; returns
    /// the event its last fragment goes in.
    mutating func send(attBytes: Int, notBefore: Int) -> Int {
        if event < notBefore {
            event = notBefore
            used = .zero
            packets = 0
        }
        for fragment in airtime.fragments(ofATTPDU: attBytes) {
            let pair = airtime.pairTime(central: fragment, peripheral: 0)
            if used > .zero, used + pair > airtime.eventLength || packets == airtime.maxPacketsPerEvent {
                event += 1
                used = .zero
                packets = 0
            }
            used += pair
            packets += 1
        }
        return event
    }
}
