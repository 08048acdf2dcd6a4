import DFUGATT

/// What the kernel granted a `bluez:` connection, put together from what it exposes: the HCI
/// events a raw HCI socket saw (`HCILinkEventLog`: interval, latency, supervision timeout, data
/// length, PHY updates) and the socket's BT_PHY option. The ATT_MTU is the link's to add.
enum BlueZLinkGrant {
    /// BT_PHY (<bluetooth/bluetooth.h>) and its LE bits.
    static let btPHY: Int32 = 14
    static let le1MTX: UInt32 = 0x0200, le1MRX: UInt32 = 0x0400
    static let le2MTX: UInt32 = 0x0800, le2MRX: UInt32 = 0x1000
    static let leCodedTX: UInt32 = 0x2000, leCodedRX: UInt32 = 0x4000

    /// `events`: the connection as the HCI events described it (nil: none seen); `phyBits`: the
    /// BT_PHY value (nil: not readable); `requested`: what Load Connection Parameters asked;
    /// `notes`: what could not be set or read, and why.
    static func grant(events: HCILinkEventLog.Link?, phyBits: UInt32?, requested: LinkGrant.Request,
                      notes: [String]) -> LinkGrant {
        var grant = LinkGrant(source: .kernel, requested: requested, notes: notes)
        if let phyBits {
            grant.txPHY = phy(phyBits, oneM: le1MTX, twoM: le2MTX, coded: leCodedTX)
            grant.rxPHY = phy(phyBits, oneM: le1MRX, twoM: le2MRX, coded: leCodedRX)
        }
        guard let events else {
            grant.notes.append("interval, latency and data length not reported: no HCI event of the connection was "
                               + "seen (a raw HCI socket needs CAP_NET_RAW)")
            return grant
        }
        if let tx = events.txPHY.flatMap(LinkGrant.PHY.init(hciValue:)) { grant.txPHY = tx }
        if let rx = events.rxPHY.flatMap(LinkGrant.PHY.init(hciValue:)) { grant.rxPHY = rx }
        // Until an LE Data Length Change, a connection carries 27-byte LL payloads (Core Vol 6, Part B, 4.5.10).
        grant.txOctets = events.txOctets ?? 27
        grant.rxOctets = events.rxOctets ?? 27
        grant.txTime = events.txTime
        grant.rxTime = events.rxTime
        grant.interval = LinkGrant.microseconds(intervalUnits: events.interval)
        grant.latency = Int(events.latency)
        grant.supervisionTimeout = Int(events.supervisionTimeout) * 10
        if let low = requested.intervalMin, let high = requested.intervalMax, let interval = grant.interval,
           !(low...high).contains(interval) {
            grant.notes.append("the interval is not the one asked for: the kernel, the controller or the device chose it")
        }
        return grant
    }

    private static func phy(_ bits: UInt32, oneM: UInt32, twoM: UInt32, coded: UInt32) -> LinkGrant.PHY? {
        if bits & twoM != 0 { return .le2M }
        if bits & coded != 0 { return .leCoded }
        if bits & oneM != 0 { return .le1M }
        return nil
    }
}
