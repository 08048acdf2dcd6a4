/// Everything `DFUKit.flash` needs: which package, with which profile, to which device, and
/// how.
public struct FlashRequest: Sendable {
    /// The firmware package (opened from a file or from bytes).
    public var package: FirmwarePackage
    /// The device's protocol.
    public var profile: Profile
    /// `SCHEME:TARGET[/ADDRESS]`, e.g. `sim:vendor-ctrlpt` or `bluez:hci0/C0:FF:EE:00:00:01`.
    public var device: String
    /// Profile parameters and write types for this run.
    public var options = FlashOptions()
    /// A public key (PEM) the package's signatures must verify with before anything is sent;
    /// nil: only checksums are checked.
    public var publicKeyPEM: String?
    /// Send a package of a kind the profile does not list in its `packages:` anyway.
    public var force = false
    /// A file the transport records the link's packets in, where it can (`hci:`: btsnoop).
    public var traceFile: String?
    /// A file to record the session in (`dfukit flash --record FILE`): every GATT operation and
    /// its value, the profile's messages, the link's parameters, with times (the RecordingFormat
    /// article; `RecordingReader` reads it back). On `hci:` a btsnoop of the HCI packets goes
    /// next to it (`FILE.btsnoop`) unless `traceFile` names another file.
    public var recordFile: String?
    /// The schemes `device` may name.
    public var registry: TransportRegistry = .standard

    /// A request with default options.
    public init(package: FirmwarePackage, profile: Profile, device: String) {
        self.package = package
        self.profile = profile
        self.device = device
    }
}
