/// A connection to one peripheral, as the engine sees it. Every transport (the simulator, the
/// userspace HCI host, BlueZ) implements it.
///
/// Time is the link's own clock (`now`): virtual for the simulator, so that runs are
/// deterministic and fast; wall-clock for radios. Deadlines passed in are on that clock.
///
/// A link is used by one task at a time; it is not `Sendable`.
public protocol GATTLink: AnyObject {
    /// The peer's address.
    var address: DeviceAddress { get }
    /// The negotiated ATT_MTU.
    var mtu: Int { get }
    /// The link clock, from an arbitrary origin.
    var now: Duration { get }

    /// Every primary service of the peer with its characteristics. Throws when the link drops or
    /// the peer does not answer.
    func discoverServices() async throws(GATTError) -> [GATTService]
    /// The characteristic's value, as long as the peer sends it (a long read where the transport
    /// supports it). Throws on an ATT error, a timeout or a lost link.
    func read(_ characteristic: GATTCharacteristic) async throws(GATTError) -> [UInt8]
    /// With response: returns when the peer acknowledged the write. Without response: returns
    /// when the transport accepted it (it may wait for a free transmit buffer).
    func write(_ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType) async throws(GATTError)
    /// Subscribes to (or stops) the characteristic's value updates: `preferring` the kind to
    /// ask for when it can do both; else the one it can.
    func setNotifications(enabled: Bool, for characteristic: GATTCharacteristic,
                          preferring kind: GATTValueUpdates) async throws(GATTError)
    /// The next notification or indication, in arrival order, or nil once `deadline` passed.
    /// Notifications that arrived while the caller was busy are kept and returned first.
    func nextNotification(until deadline: Duration) async throws(GATTError) -> GATTNotification?
    /// Lets time pass on the link clock (a `wait` step).
    func sleep(until deadline: Duration) async throws(GATTError)
    /// Closes the link; later calls on it fail with `.disconnected`.
    func disconnect() async
    /// What the stack granted this connection (PHY, data length, MTU, interval...) and what was
    /// asked; nil when the transport cannot tell. Read after discovery: updates the controller
    /// makes right after connecting have arrived by then.
    var linkGrant: LinkGrant? { get async }
    /// Returns once every write without response handed to the link went out on air, so that
    /// a transfer's time and rate count bytes the link carried, not bytes queued in its transmit
    /// buffers. Transports that cannot tell return at once (the default).
    func writesCarried() async throws(GATTError)
    /// Writes without response accepted but not yet on air; nil when the transport cannot tell
    /// (the default).
    var writesInFlight: Int? { get async }
    /// What carries the link: Bluetooth LE (the default), a serial line, UDP. A profile reads
    /// it as `link.kind` where a procedure differs by link (a serial-only command).
    var medium: LinkMedium { get }
    /// The largest message the device takes, where the link knows it (a serial device's
    /// receive buffer from its device string or the profile); nil otherwise (the default).
    var deviceBuffer: Int? { get }
}

/// What carries a link.
public enum LinkMedium: String, Sendable, Hashable, CaseIterable {
    /// Bluetooth Low Energy: GATT over ATT.
    case ble
    /// A byte stream: a UART, a pseudo-terminal, USB CDC-ACM.
    case serial
    /// Datagrams: UDP.
    case udp
}

extension GATTLink {
    /// The default: the transport cannot tell when queued writes went out.
    public func writesCarried() async throws(GATTError) {}
    /// The default: the transport cannot tell how many writes are still queued.
    public var writesInFlight: Int? { get async { nil } }
    /// The default: Bluetooth LE.
    public var medium: LinkMedium { .ble }
    /// The default: not known.
    public var deviceBuffer: Int? { nil }
}

/// A way to reach devices: a simulated world, an HCI controller, a BlueZ adapter.
public protocol GATTTransport: AnyObject {
    /// A short description, e.g. "sim:vendor-ctrlpt".
    var name: String { get }
    /// The transport's clock (virtual for the simulator), from an arbitrary origin.
    var now: Duration { get }
    /// Advertisements seen within `timeout`.
    func scan(timeout: Duration) async throws(GATTError) -> [Advertisement]
    /// A link to the device at `address`, its MTU exchanged. Throws `.connectionFailed` when the
    /// device cannot be reached within `timeout` (on the transport clock).
    func connect(to address: DeviceAddress, timeout: Duration) async throws(GATTError) -> any GATTLink
    /// Waits for `address` to advertise, listening from now on (what was heard before this call
    /// does not count): how a device that rebooted is seen to be back. Nil once `timeout` passed
    /// without it; `.unsupported` when this transport cannot listen (the caller then connects
    /// with the same timeout, which also waits for the device to advertise).
    func waitForAdvertisement(from address: DeviceAddress, timeout: Duration) async throws(GATTError) -> Advertisement?
    /// Lets time pass on the transport clock with no link open (e.g. while a device that was
    /// told to reset finishes its reset delay).
    func sleep(until deadline: Duration) async
    /// The one device this transport reaches, when it reaches exactly one (a serial port, a UDP
    /// address): used when no address was given. Nil for a radio (the default).
    var soleDevice: DeviceAddress? { get }
}

extension GATTTransport {
    /// A radio reaches many devices.
    public var soleDevice: DeviceAddress? { nil }
}

/// How a characteristic's value updates arrive: notifications (unacknowledged) or indications
/// (each confirmed by the client before the next).
public enum GATTValueUpdates: Sendable, Hashable {
    /// Notifications: unacknowledged, several per connection event.
    case notifications
    /// Indications: each confirmed by the client before the peer sends the next.
    case indications

    /// The Client Characteristic Configuration value that enables it for a characteristic with
    /// `properties`, preferring this kind: 0x0001 notifications, 0x0002 indications; nil when
    /// the characteristic does neither.
    public func configuration(for properties: GATTProperties) -> UInt16? {
        let canNotify = properties.contains(.notify), canIndicate = properties.contains(.indicate)
        switch self {
        case .indications where canIndicate, .notifications where canIndicate && !canNotify: return 0x0002
        case .notifications where canNotify, .indications where canNotify: return 0x0001
        default: return nil
        }
    }
}

extension GATTLink {
    /// A link that does not know what was granted.
    public var linkGrant: LinkGrant? { get async { nil } }

    /// Notifications when the characteristic can notify, else indications.
    public func setNotifications(enabled: Bool, for characteristic: GATTCharacteristic) async throws(GATTError) {
        try await setNotifications(enabled: enabled, for: characteristic, preferring: .notifications)
    }
}
