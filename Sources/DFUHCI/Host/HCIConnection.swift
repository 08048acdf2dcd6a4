import DFUGATT

/// One live LE connection as the host knows it.
package struct HCIConnection: Sendable, Hashable {
    package var handle: UInt16
    package var peerAddress: DeviceAddress
    package var peerAddressType: HCIAddressType
    /// Connection interval, 1.25 ms units.
    package var interval: UInt16
    package var latency: UInt16
    /// Supervision timeout, 10 ms units.
    package var supervisionTimeout: UInt16
    /// Link-layer payload sizes after an LE Data Length Change (27 until then).
    package var maxTxOctets: Int = 27
    package var maxRxOctets: Int = 27
    /// Longest LL packet airtimes (microseconds) of the last LE Data Length Change; nil before one.
    package var maxTxTime: Int?
    package var maxRxTime: Int?
    /// 1 = 1M, 2 = 2M, 3 = Coded.
    package var txPHY: UInt8 = 1
    package var rxPHY: UInt8 = 1
    /// What became of the host's requests for longer LL packets and the 2M PHY.
    package var dataLengthRequest = HCILinkOption.notAsked
    package var phyRequest = HCILinkOption.notAsked

    package init(handle: UInt16, peerAddress: DeviceAddress, peerAddressType: HCIAddressType, interval: UInt16,
                latency: UInt16, supervisionTimeout: UInt16) {
        self.handle = handle
        self.peerAddress = peerAddress
        self.peerAddressType = peerAddressType
        self.interval = interval
        self.latency = latency
        self.supervisionTimeout = supervisionTimeout
    }
}

/// A connection that ended: which, and why.
package struct HCIDisconnection: Sendable, Hashable {
    package var handle: UInt16
    package var peerAddress: DeviceAddress
    /// As Disconnection Complete reported it, or `.localHostTerminated` when the host gave up on
    /// the link itself (transport closed, disconnect unconfirmed).
    package var reason: HCIStatus

    package init(handle: UInt16, peerAddress: DeviceAddress, reason: HCIStatus) {
        self.handle = handle
        self.peerAddress = peerAddress
        self.reason = reason
    }
}
