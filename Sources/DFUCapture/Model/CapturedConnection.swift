import DFUGATT

/// One connection seen in a capture: the device (the GATT server), what was discovered of its
/// GATT database, and the ATT operations both ways in order.
public struct CapturedConnection: Sendable {
    /// The device's address, where the capture shows it (a connection complete event, the
    /// sniffer's CONNECT_IND, the recording); nil when the capture started mid-connection.
    public var peer: DeviceAddress?
    /// The HCI connection handle or the link layer's access address, to tell connections apart.
    public var handle: UInt32?
    /// What carried it: Bluetooth LE for btsnoop and pcap; a recording says.
    public var medium: LinkMedium
    /// ATT_MTU as agreed in the capture (the smaller of the two values exchanged); nil when no
    /// exchange was seen (23 then, unless a recording says).
    public var mtu: Int?
    /// The services and characteristics the client discovered in this connection (or, for a
    /// recording, the ones DFUKit was given); nil when the capture holds no discovery (Android
    /// often uses its cache), and handles are all there is.
    public var services: [GATTService]?
    /// The device's advertisement heard before the connection, where the capture has one.
    public var advertisement: Advertisement?
    /// Every ATT operation, in capture order.
    public var operations: [CapturedOperation]
    /// How it ended; nil when the capture stops while it is still open.
    public var ending: CapturedEnding?
    /// The largest message the device takes, where the link knew it (a serial device's
    /// receive buffer, from a recording); a replay offers the same, so that DFUKit cuts its
    /// messages as it did.
    public var deviceBuffer: Int?

    /// A connection with no operations yet.
    public init(peer: DeviceAddress? = nil, handle: UInt32? = nil, medium: LinkMedium = .ble, mtu: Int? = nil,
                services: [GATTService]? = nil, advertisement: Advertisement? = nil,
                operations: [CapturedOperation] = [], ending: CapturedEnding? = nil) {
        self.peer = peer
        self.handle = handle
        self.medium = medium
        self.mtu = mtu
        self.services = services
        self.advertisement = advertisement
        self.operations = operations
        self.ending = ending
    }

    /// The characteristic whose value handle is `handle`, where discovery found it.
    public func characteristic(valueHandle handle: UInt16) -> GATTCharacteristic? {
        services?.lazy.flatMap(\.characteristics).first { $0.valueHandle == handle }
    }
}

/// How a connection ended.
public struct CapturedEnding: Sendable, Hashable {
    /// When, from the capture's first record.
    public var time: Duration
    /// The device ended it (a remote disconnect, a supervision timeout) rather than the client.
    public var byDevice: Bool
    /// The HCI reason code where the capture has it (0x13 remote user terminated, 0x08
    /// supervision timeout, 0x16 terminated by the local host).
    public var reason: UInt8?

    /// An ending at `time`.
    public init(time: Duration, byDevice: Bool, reason: UInt8? = nil) {
        self.time = time
        self.byDevice = byDevice
        self.reason = reason
    }
}
