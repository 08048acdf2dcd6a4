import DFUSimulator

/// One benchmark run: a profile over a simulated link with given settings.
struct BenchScenario {
    var name: String
    var profile: String
    var device: String
    var link: LinkSettings
    var bytes: Int

    /// The least time the PHY could carry `bytes` of attribute values in: bytes over the
    /// link's physical limit (`LinkAirtime.physicalLimit`: value bytes per second of the best
    /// ATT PDU size up to the MTU, its LL fragments' airtime each paired with an empty PDU and
    /// T_IFS, times the share of each interval the event length gives the link). No protocol
    /// overhead, no waiting: `physical_efficiency` = idealSeconds / measured seconds <= 1.
    var idealSeconds: Double {
        Double(bytes) / link.airtime.physicalLimit(mtu: link.mtu)
    }

    /// "1M-dl251-mtu247-15ms-ev15ms-6ppe": every setting that bounds the row.
    static func label(_ link: LinkSettings) -> String {
        "\(link.phy.rawValue)-dl\(link.dataLength)-mtu\(link.mtu)-\(milliseconds(link.connectionInterval))ms"
            + "-ev\(milliseconds(link.effectiveEventLength))ms-\(link.packetsPerEvent)ppe"
    }

    static func milliseconds(_ duration: Duration) -> String {
        let value = Double(duration / .microseconds(1)) / 1000
        return value == value.rounded() ? String(Int(value)) : String(value)
    }
}
