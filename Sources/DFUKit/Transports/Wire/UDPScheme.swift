import DFUGATT
import DFUProfile
import DFUSerial
import DFUWire

/// `udp:HOST[:PORT][?buffer=N]`: a device that takes the profile's messages in UDP datagrams
/// (Zephyr's SMP server on port 1337), as its `links.udp` says. Several addresses,
/// comma-separated, make a batch line (one device each).
public struct UDPScheme: TransportScheme {
    /// A `udp:` scheme.
    public init() {}

    /// `udp`.
    public var name: String { "udp" }

    /// What it reaches.
    public var summary: String {
        "UDP devices: udp:HOST[:PORT], udp:[IPv6]:PORT [?buffer=N] (the port defaults to the profile's links.udp.port, else 1337)"
    }

    /// Datagrams.
    public func medium(target: String) -> LinkMedium { .udp }

    /// The addresses and options, read as `open` would read them.
    public func check(target: String) throws(DFUKitError) {
        _ = try UDPTarget(parsing: target, defaultPort: 1337)
    }

    /// The profile must say how its messages travel over UDP.
    public func check(target: String, profile: Profile) throws(DFUKitError) {
        let spec = try WireBinding.spec(profile: profile, kind: .udp, device: "udp:\(target)")
        _ = try UDPTarget(parsing: target, defaultPort: spec.port ?? 1337)
    }

    /// The device at the one address.
    public func open(_ request: TransportRequest) throws(DFUKitError) -> any GATTTransport {
        guard let profile = request.profile else {
            throw DFUKitError(kind: .usage, message: "udp:\(request.target): a UDP device is reached with a profile "
                              + "(its links.udp says how messages travel); there is nothing to scan")
        }
        let spec = try WireBinding.spec(profile: profile, kind: .udp, device: "udp:\(request.target)")
        let parsed = try UDPTarget(parsing: request.target, defaultPort: spec.port ?? 1337)
        guard parsed.addresses.count == 1, let address = parsed.addresses.first else {
            throw DFUKitError(kind: .usage, message: "udp:\(request.target) names several devices; flash and exec take one "
                              + "(batch run takes several)")
        }
        return try Self.transport(address, options: parsed.link, profile: profile, traceFile: request.traceFile)
    }

    /// One device per address.
    public func batchSource(_ request: TransportRequest) throws(DFUKitError) -> any BatchDeviceSource {
        guard let profile = request.profile else { throw DFUKitError(kind: .usage, message: "udp: batches need the profile") }
        let spec = try WireBinding.spec(profile: profile, kind: .udp, device: "udp:\(request.target)")
        let parsed = try UDPTarget(parsing: request.target, defaultPort: spec.port ?? 1337)
        let services = try WireBinding.make(profile: profile, kind: .udp, options: parsed.link,
                                            device: "udp:\(request.target)").services.map(\.uuid)
        return WireBatchSource(services: services, list: {
            parsed.addresses.map { (WireDeviceIdentity.address(for: "udp:\($0)"), "udp:\($0)", $0) }
        }, transport: { address throws(DFUKitError) in
            try Self.transport(address, options: parsed.link, profile: profile, traceFile: nil)
        })
    }

    private static func transport(_ address: UDPAddress, options: WireLinkOptions, profile: Profile,
                                  traceFile: String?) throws(DFUKitError) -> WireTransport {
        let binding = try WireBinding.make(profile: profile, kind: .udp, options: options, device: "udp:\(address)")
        return WireTransport(endpoint: WireCaptureEndpoint.wrap(UDPEndpoint(address: address), traceFile: traceFile),
                             binding: binding, address: WireDeviceIdentity.address(for: "udp:\(address)"))
    }
}

/// What follows `udp:`: one address or several, and the options.
struct UDPTarget {
    var addresses: [UDPAddress] = []
    var link = WireLinkOptions()

    init(parsing target: String, defaultPort: Int) throws(DFUKitError) {
        let device = "udp:\(target)"
        let (body, options) = try WireLinkOptions.split(target, device: device)
        for (key, _) in options where !["buffer"].contains(key) {
            throw DFUKitError(kind: .usage, message: "\(device): unknown option '\(key)'; udp: takes buffer=")
        }
        link = try WireLinkOptions(options: options, device: device)
        for text in body.split(separator: ",").map(String.init) {
            let hasPort = text.hasPrefix("[") ? text.contains("]:") : text.contains(":")
            do {
                addresses.append(try UDPAddress(parsing: hasPort ? text : "\(text):\(defaultPort)"))
            } catch {
                throw DFUKitError(kind: .usage, message: "\(device): \(error)")
            }
        }
        if addresses.isEmpty { throw DFUKitError(kind: .usage, message: "\(device) names no address: write udp:HOST[:PORT]") }
    }
}
