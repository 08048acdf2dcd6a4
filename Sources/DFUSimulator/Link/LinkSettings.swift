/// The timing of a simulated BLE connection.
///
/// Defaults: connection interval 15 ms, LE 1M PHY, LL data length 251, the whole interval as
/// event length, at most 6 LL data PDUs per connection event in each direction, ATT_MTU 247,
/// 12 transmit buffers on the central. They describe a good phone or a desktop controller
/// with data length extension on a 1M PHY: six 251-byte packet pairs take 14.8 ms of airtime,
/// so the cap and the airtime agree at the defaults. Transfers take their airtime
/// (`LinkAirtime`): a connection event carries the packet pairs that fit in its event length.
public struct LinkSettings: Sendable, Hashable {
    /// Time between the starts of two connection events (`interval`, 7.5 ms to 4 s).
    public var connectionInterval: Duration
    /// At most this many LL data PDUs go each way in one connection event (a controller's
    /// buffer limit, as phones have), whatever else fits in the event.
    public var packetsPerEvent: Int
    /// The ATT_MTU both sides agree on (`mtu`, 23...517).
    public var mtu: Int
    /// How many writes without response the central may have queued before `write` waits.
    package var transmitBuffers: Int
    /// Time from a connect request to a usable link (advertising interval, connection setup).
    public var connectDelay: Duration
    /// How long an ATT request may stay unanswered before the link gives up (ATT's 30 s).
    package var attTimeout: Duration
    /// The PHY (`phy`).
    public var phy: LinkPHY
    /// The negotiated LL data length (largest LL payload), 27...251.
    public var dataLength: Int
    /// The controller's event length for this connection; nil: the whole interval.
    public var eventLength: Duration?
    /// Whether the link is encrypted (a 4-byte MIC in every non-empty LL PDU).
    package var encrypted: Bool

    /// Link settings: the defaults above unless given.
    public init(connectionInterval: Duration = .milliseconds(15), packetsPerEvent: Int = 6, mtu: Int = 247,
                transmitBuffers: Int = 12, connectDelay: Duration = .milliseconds(100),
                attTimeout: Duration = .seconds(30), phy: LinkPHY = .le1M, dataLength: Int = 251,
                eventLength: Duration? = nil, encrypted: Bool = false) {
        self.connectionInterval = connectionInterval
        self.packetsPerEvent = packetsPerEvent
        self.mtu = mtu
        self.transmitBuffers = transmitBuffers
        self.connectDelay = connectDelay
        self.attTimeout = attTimeout
        self.phy = phy
        self.dataLength = dataLength
        self.eventLength = eventLength
        self.encrypted = encrypted
    }

    /// Bytes of attribute value one PDU carries: ATT_MTU - 3.
    package var payloadPerPacket: Int { mtu - 3 }

    /// The airtime model of this link.
    public var airtime: LinkAirtime {
        LinkAirtime(phy: phy, dataLength: dataLength, encrypted: encrypted, connectionInterval: connectionInterval,
                    eventLength: eventLength, maxPacketsPerEvent: packetsPerEvent)
    }

    /// The event length in effect: the configured one, at most the interval.
    public var effectiveEventLength: Duration { airtime.eventLength }
}
