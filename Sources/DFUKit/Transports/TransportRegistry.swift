import Synchronization

/// The transport schemes device strings may name. `standard` holds `sim:`, `hci:` and
/// `bluez:`, and is the one `dfukit` and the embedding API use unless given another;
/// register your own scheme in it (or in a registry of your own) to reach devices some other way.
public final class TransportRegistry: Sendable {
    /// `sim:`, `hci:` and `bluez:`, plus whatever the program registers.
    public static let standard = TransportRegistry(schemes: [SimulatorScheme(), HCIScheme(), BlueZScheme(), SerialScheme(),
                                                            UDPScheme()])

    private let schemes: Mutex<[String: any TransportScheme]>

    /// A registry holding `schemes`.
    public init(schemes: [any TransportScheme] = []) {
        self.schemes = Mutex(Dictionary(schemes.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last }))
    }

    /// Adds `scheme`, replacing any scheme of the same name.
    public func register(_ scheme: any TransportScheme) {
        schemes.withLock { $0[scheme.name] = scheme }
    }

    /// The scheme called `name` (without colon), if registered.
    public func scheme(named name: String) -> (any TransportScheme)? {
        schemes.withLock { $0[name] }
    }

    /// Every registered scheme's name, sorted.
    public var names: [String] { schemes.withLock { $0.keys.sorted() } }

    /// Parses `device` and finds its scheme, checking its target.
    /// - Throws: `.usage` for a malformed string, an unknown scheme or a wrong target.
    public func locate(_ device: String) throws(DFUKitError) -> (locator: DeviceLocator, scheme: any TransportScheme) {
        let locator = try DeviceLocator(parsing: device)
        return (locator, try scheme(for: locator))
    }

    /// The scheme `locator` names, its target checked.
    /// - Throws: `.usage` for an unknown scheme or a wrong target.
    public func scheme(for locator: DeviceLocator) throws(DFUKitError) -> any TransportScheme {
        guard let scheme = scheme(named: locator.scheme) else {
            throw DFUKitError(kind: .usage, message: "no transport '\(locator.scheme):'; registered: "
                              + names.map { "\($0):" }.joined(separator: ", "))
        }
        try scheme.check(target: locator.target)
        return scheme
    }

    /// Opens the transport `locator` names.
    /// - Throws: `.usage` for an unknown scheme or a wrong target, `.transport` when it cannot
    ///   be used here.
    /// With `profile`, links without GATT (`serial:`, `udp:`, `sim:...?link=`) carry its
    /// messages as its `links:` entry says.
    public func open(_ locator: DeviceLocator, security: String? = nil, traceFile: String? = nil,
                     profile: Profile? = nil) throws(DFUKitError) -> any GATTTransport {
        try scheme(for: locator).open(TransportRequest(target: locator.target, security: security, traceFile: traceFile,
                                                       profile: profile))
    }
}
