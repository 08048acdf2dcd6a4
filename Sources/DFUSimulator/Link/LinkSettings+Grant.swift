import DFUGATT

extension LinkSettings {
    /// The modelled link as a `LinkGrant`: what the simulator's link runs on. Nothing was asked
    /// (the settings are the world's `phy=`, `data-length=`, `mtu=`, `interval=`); the PHY
    /// times are those of a packet of the data length, as LE Data Length Change would report.
    /// No supervision timeout is modelled.
    public var grant: LinkGrant {
        let time = Int(phy.packetAirtime(payload: dataLength, encrypted: encrypted) / .microseconds(1))
        let interval = Int(connectionInterval / .microseconds(1))
        return LinkGrant(source: .model, txPHY: phy.grantPHY, rxPHY: phy.grantPHY, txOctets: dataLength,
                         rxOctets: dataLength, txTime: time, rxTime: time, mtu: mtu, interval: interval, latency: 0,
                         notes: phy.isCoded ? ["LE Coded \(phy == .codedS2 ? "S=2" : "S=8")"] : [])
    }
}

extension LinkPHY {
    var grantPHY: LinkGrant.PHY {
        switch self {
        case .le1M: return .le1M
        case .le2M: return .le2M
        case .codedS2, .codedS8: return .leCoded
        }
    }

    var isCoded: Bool { self == .codedS2 || self == .codedS8 }
}
