import DFUSimulator

/// One benchmark run: a profile over a simulated link with given settings.
struct BenchScenario {
    var name: String
    var profile: String
    var device: String
    var link: LinkSettings
    var bytes: Int

    /// The least air time the link could move `bytes` in: `packetsPerEvent` full PDUs of
    /// ATT_MTU-3 bytes every connection interval, no protocol overhead at all.
    var idealSeconds: Double {
        let perInterval = Double(link.packetsPerEvent * (link.mtu - 3))
        return Double(bytes) / perInterval * (Double(link.connectionInterval / .milliseconds(1)) / 1000)
    }
}
