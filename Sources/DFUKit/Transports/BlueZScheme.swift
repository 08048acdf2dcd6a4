/// `bluez:hciN`: the Linux kernel's Bluetooth stack on one adapter (any security level).
public struct BlueZScheme: TransportScheme {
    /// A `bluez:` scheme.
    public init() {}

    /// `bluez`.
    public var name: String { "bluez" }

    /// What it reaches.
    public var summary: String { "the kernel's Bluetooth stack: bluez:hciN" }

    /// The adapter; one transport may hold several links at once.
    public func open(_ request: TransportRequest) throws(DFUKitError) -> any GATTTransport {
        try openShared(request)
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
