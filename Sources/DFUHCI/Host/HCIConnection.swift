import DFUGATT

/// One live LE connection as the host knows it.
public struct HCIConnection: Sendable, Hashable {
    public var handle: UInt16
    public var peerAddress: DeviceAddress
    public var peerAddressType: HCIAddressType
    /// Connection interval, 1.25 ms units.
    public var interval: UInt16
    public var latency: UInt16
    /// Supervision timeout, 10 ms units.
    public var supervisionTimeout: UInt16
    /// Link-layer payload sizes after an LE Data Length Change (27 until then).
    public var maxTxOctets: Int = 27
    public var maxRxOctets: Int = 27
    /// Longest LL packet airtimes (microseconds) of the last LE Data Length Change; nil before one.
    public var maxTxTime: Int?
    public var maxRxTime: Int?
    /// 1 = 1M, 2 = 2M, 3 = Coded.
    public var txPHY: UInt8 = 1
    public var rxPHY: UInt8 = 1
    /// What became of the host's requests for longer LL packets and the 2M PHY.
    public var dataLengthRequest = HCILinkOption.notAsked
    public var phyRequest = HCILinkOption.notAsked

    public init(handle: UInt16, peerAddress: DeviceAddress, peerAddressType: HCIAddressType, interval: UInt16,
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
public struct HCIDisconnection: Sendable, Hashable {
    public var handle: UInt16
    public var peerAddress: DeviceAddress
    /// As Disconnection Complete reported it, or `.localHostTerminated` when the host gave up on
    /// the link itself (transport closed, disconnect unconfirmed).
    public var reason: HCIStatus

    public init(handle: UInt16, peerAddress: DeviceAddress, reason: HCIStatus) {
        self.handle = handle
        self.peerAddress = peerAddress
        self.reason = reason
    }
}
