/// The timing of a simulated BLE connection.
///
/// Defaults: connection interval 15 ms, 6 packets per connection event in each direction,
/// ATT_MTU 247, 12 transmit buffers on the central. They describe a good phone or a desktop
/// controller with data length extension on a 1M PHY.
public struct LinkSettings: Sendable, Hashable {
    public var connectionInterval: Duration
    /// At most this many PDUs go each way in one connection event.
    public var packetsPerEvent: Int
    public var mtu: Int
    /// How many writes without response the central may have queued before `write` waits.
    public var transmitBuffers: Int
    /// Time from a connect request to a usable link (advertising interval, connection setup).
    public var connectDelay: Duration
    /// How long an ATT request may stay unanswered before the link gives up (ATT's 30 s).
    public var attTimeout: Duration

    public init(connectionInterval: Duration = .milliseconds(15), packetsPerEvent: Int = 6, mtu: Int = 247,
                transmitBuffers: Int = 12, connectDelay: Duration = .milliseconds(100),
                attTimeout: Duration = .seconds(30)) {
        self.connectionInterval = connectionInterval
        self.packetsPerEvent = packetsPerEvent
        self.mtu = mtu
        self.transmitBuffers = transmitBuffers
        self.connectDelay = connectDelay
        self.attTimeout = attTimeout
    }

    /// Bytes of attribute value one PDU carries: ATT_MTU - 3.
    public var payloadPerPacket: Int { mtu - 3 }
}
