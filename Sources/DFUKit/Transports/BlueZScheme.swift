/// `bluez:hciN`: the Linux kernel's Bluetooth stack on one adapter (any security level); in a
/// batch, `bluez:hci0,hci1` is a station with two radios, one per adapter.
public struct BlueZScheme: TransportScheme {
    /// A `bluez:` scheme.
    public init() {}

    /// `bluez`.
    public var name: String { "bluez" }

    /// What it reaches.
    public var summary: String { "the kernel's Bluetooth stack: bluez:hciN (a batch: bluez:hci0,hci1)" }

    /// An adapter name, `hciN`, or for a batch a comma-separated list of them.
    public func check(target: String) throws(DFUKitError) {
        _ = try radioTargets(target)
    }

    /// `hci0,hci1`: each adapter is a radio.
    public func radioTargets(_ target: String) throws(DFUKitError) -> [String] {
        let adapters = target.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        for adapter in adapters where !BlueZGATTTransport.isValidAdapterName(adapter) {
            let what = adapter.isEmpty ? "an empty adapter name" : "'\(adapter)' is not an adapter name like hci0"
            throw DFUKitError(kind: .usage, message: "bluez:\(target): \(what)"
                              + (adapters.count > 1 ? " (a station's adapters are listed as bluez:hci0,hci1)" : ""))
        }
        return adapters
    }

    /// The adapter's name: `hci0`.
    public func radioName(target: String) -> String? { target }

    /// The adapter; one transport may hold several links at once.
    /// - Throws: `.usage` for a list of adapters (only a batch takes several).
    public func open(_ request: TransportRequest) throws(DFUKitError) -> any GATTTransport {
        if try radioTargets(request.target).count > 1 {
            throw DFUKitError(kind: .usage, message: "bluez:\(request.target): one adapter, please: only 'batch run' "
                              + "takes several (a station's radios)")
        }
        return try openShared(request)
    }

    /// One transport shared by every attempt of the batch.
    public func batchSource(_ request: TransportRequest) throws(DFUKitError) -> any BatchDeviceSource {
        SharedTransportBatchSource(transport: try openShared(request))
    }

    private func openShared(_ request: TransportRequest) throws(DFUKitError) -> any GATTTransport & Sendable {
        let level: BlueZSecurityLevel? = switch request.security {
        case "low"?: .low
        case "medium"?: .medium
        case "high"?: .high
        case "fips"?: .fips
        default: nil
        }
        do {
            return try BlueZGATTTransport(adapter: request.target, security: level)
        } catch {
            throw DFUKitError(kind: .usage, message: error.detail)
        }
    }
}
