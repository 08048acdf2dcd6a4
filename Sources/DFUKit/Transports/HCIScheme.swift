/// `hci:tcp:HOST:PORT`, `hci:unix:PATH`, `hci:serial:PATH[,BAUD]`, `hci:user:N`: DFUKit's own
/// userspace HCI host on a controller (`HCIGATTTransport`). It pairs with Just Works only
/// (security up to `medium`).
public struct HCIScheme: TransportScheme {
    /// An `hci:` scheme.
    public init() {}

    /// `hci`.
    public var name: String { "hci" }

    /// What it reaches.
    public var summary: String { "DFUKit's HCI host on a controller: hci:tcp:HOST:PORT, hci:unix:PATH, ..." }

    /// The controller's address, as `open` reads it.
    public func check(target: String) throws(DFUKitError) {
        do {
            _ = try H4PipeAddress(parsing: "hci:" + target)
        } catch {
            throw DFUKitError(kind: .usage, message: "\(error)")
        }
    }

    /// `hci:user:N` is adapter `hciN`; other controllers (`tcp:`, `unix:`, `serial:`) get `radio-N`.
    public func radioName(target: String) -> String? {
        guard target.hasPrefix("user:"), let index = Int(target.dropFirst(5)) else { return nil }
        return "hci\(index)"
    }

    /// The host on the controller; one transport may hold several links at once.
    public func open(_ request: TransportRequest) throws(DFUKitError) -> any GATTTransport {
        try openShared(request)
    }

    /// One transport shared by every attempt of the batch.
    public func batchSource(_ request: TransportRequest) throws(DFUKitError) -> any BatchDeviceSource {
        SharedTransportBatchSource(transport: try openShared(request))
    }

    private func openShared(_ request: TransportRequest) throws(DFUKitError) -> any GATTTransport & Sendable {
        try check(target: request.target)
        switch request.security {
        case "high"?, "fips"?:
            throw DFUKitError(kind: .transport, message: "the profile asks for security \(request.security!) (an authenticated "
                              + "link); DFUKit's own HCI host pairs with Just Works only (security medium): use bluez: for this device")
        default:
            return HCIGATTTransport(address: request.target, traceFile: request.traceFile, encrypt: request.security == "medium")
        }
    }
}
