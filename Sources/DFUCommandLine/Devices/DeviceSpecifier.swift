import DFUGATT

/// `--device TRANSPORT[/ADDRESS]`: which transport, and optionally which device on it.
/// `sim:vendor-ctrlpt?mtu=247&fault=disconnect-after:40000/C0:FF:EE:00:00:01`,
/// `hci:tcp:127.0.0.1:9002/F0:01:02:03:04:05`, `bluez:hci0`.
public struct DeviceSpecifier: Sendable, Equatable {
    public enum Transport: String, Sendable, CaseIterable {
        case sim, hci, bluez
    }

    public var transport: Transport
    /// Everything after `TRANSPORT:` and before `/ADDRESS`.
    public var target: String
    public var address: DeviceAddress?

    public init(parsing text: String) throws(UsageError) {
        let command = "dfukit flash"
        guard let colon = text.firstIndex(of: ":"), let transport = Transport(rawValue: String(text[..<colon])) else {
            throw UsageError("--device '\(text)' must start with a transport: "
                             + Transport.allCases.map { "\($0.rawValue):" }.joined(separator: ", "), command: command)
        }
        self.transport = transport
        var rest = String(text[text.index(after: colon)...])
        if let slash = rest.lastIndex(of: "/"), !Self.isInSimulatorPath(rest, slash: slash, transport: transport) {
            let candidate = String(rest[rest.index(after: slash)...])
            guard let address = DeviceAddress(string: candidate) else {
                throw UsageError("'\(candidate)' in --device is not a device address like C0:FF:EE:00:00:01", command: command)
            }
            self.address = address
            rest = String(rest[..<slash])
        }
        guard !rest.isEmpty else {
            throw UsageError("--device '\(text)' names no \(transport.rawValue) target", command: command)
        }
        self.target = rest
    }

    /// Whether the `/` at `slash` belongs to a file path of a `sim:` option (`state=/tmp/x.json`):
    /// it comes after the `?` and what follows it is no device address.
    private static func isInSimulatorPath(_ text: String, slash: String.Index, transport: Transport) -> Bool {
        guard transport == .sim, let question = text.firstIndex(of: "?"), question < slash else { return false }
        return DeviceAddress(string: String(text[text.index(after: slash)...])) == nil
    }
}
