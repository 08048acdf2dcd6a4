/// A way to reach devices, named by the scheme of a device string (`sim:`, `hci:`, `bluez:`):
/// implement this protocol and register it (`TransportRegistry.standard.register(_:)`) to make
/// `SCHEME:...` usable by `DFUKit.flash`, `scan`, `exec` and `batch`.
///
/// The transport it opens implements `GATTTransport` (scan, connect, wait for a device's
/// advertisement, a clock); the engine needs nothing else.
public protocol TransportScheme: Sendable {
    /// The scheme without its colon: `sim`.
    var name: String { get }
    /// One line for listings: what the scheme reaches and what its target looks like.
    var summary: String { get }
    /// Checks a target without opening anything, so that a mistake is reported before any
    /// profile or package is read. The default accepts every target.
    /// - Throws: `.usage` for a target this scheme cannot mean.
    func check(target: String) throws(DFUKitError)
    /// Opens the transport for one operation (a flash, a scan, a command).
    /// - Throws: `.usage` for a wrong target, `.transport` when it cannot be used here.
    func open(_ request: TransportRequest) throws(DFUKitError) -> any GATTTransport
    /// Where a batch finds its devices on this transport. The default refuses (`.usage`).
    func batchSource(_ request: TransportRequest) throws(DFUKitError) -> any BatchDeviceSource
    /// Whether the transport's clock is simulated (its seconds are not wall-clock seconds).
    /// The default is false.
    func usesSimulatedClock(target: String) -> Bool
    /// What carries links to `target`: Bluetooth LE (the default), a serial line or UDP.
    func medium(target: String) -> LinkMedium
    /// Checks that `profile` can run on `target` (a serial link needs the profile's
    /// `links.serial`, and the device string's options must fit its framing), before anything
    /// is opened. The default accepts every profile.
    /// - Throws: `.usage`.
    func check(target: String, profile: Profile) throws(DFUKitError)
    /// The radios one target names, for a batch: `hci0,hci1` is two adapters on `bluez:`. The
    /// default: the target is one radio.
    /// - Throws: `.usage` for a list with an empty or malformed entry.
    func radioTargets(_ target: String) throws(DFUKitError) -> [String]
    /// The name a batch reports the radio `target` under (`hci0` for `bluez:hci0`), or nil for the
    /// default `radio-N` (N: its place among the batch's radios). The default is nil.
    func radioName(target: String) -> String?
    /// Whether the same target given twice makes two radios that hear the same devices (`sim:`: two
    /// radios over one simulated fleet). False, the default: one adapter cannot be two radios, and
    /// a batch refuses it.
    func sharesDevicesAcrossRadios(target: String) -> Bool
}

extension TransportScheme {
    /// Accepts every target.
    public func check(target: String) throws(DFUKitError) {}

    /// Refuses: this transport does not hold several devices at once.
    public func batchSource(_ request: TransportRequest) throws(DFUKitError) -> any BatchDeviceSource {
        throw DFUKitError(kind: .usage, message: "\(name): cannot run batches (it offers no device source for them)")
    }

    /// False: a wall clock.
    public func usesSimulatedClock(target: String) -> Bool { false }

    /// Bluetooth LE.
    public func medium(target: String) -> LinkMedium { .ble }

    /// Accepts every profile.
    public func check(target: String, profile: Profile) throws(DFUKitError) {}

    /// One radio.
    public func radioTargets(_ target: String) throws(DFUKitError) -> [String] { [target] }

    /// Nil: `radio-N`.
    public func radioName(target: String) -> String? { nil }

    /// False: one target, one radio.
    public func sharesDevicesAcrossRadios(target: String) -> Bool { false }
}
