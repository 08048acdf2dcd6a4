import DFUKit

/// `--device TRANSPORT[/ADDRESS]`: which transport, and optionally which device on it.
/// `sim:vendor-ctrlpt?mtu=247&fault=disconnect-after:40000/C0:FF:EE:00:00:01`,
/// `sim:nordic-secure-dfu?key=keys/pub.pem`, `sim:vendor-ctrlpt?fleet=200&journal=/tmp/line-1`,
/// `hci:tcp:127.0.0.1:9002/F0:01:02:03:04:05`, `hci:unix:/run/hci.sock`, `bluez:hci0`.
public struct DeviceSpecifier: Sendable, Equatable {
    public enum Transport: String, Sendable, CaseIterable {
        case sim, hci, bluez
    }

    public var transport: Transport
    /// Everything after `TRANSPORT:` and before `/ADDRESS`.
    public var target: String
    public var address: DeviceAddress?

    /// - Parameter command: the command line it came from, for the pointer to its `--help`.
    public init(parsing text: String, command: String) throws(UsageError) {
        guard let colon = text.firstIndex(of: ":"), let transport = Transport(rawValue: String(text[..<colon])) else {
            throw UsageError("--device '\(text)' must start with a transport: "
                             + Transport.allCases.map { "\($0.rawValue):" }.joined(separator: ", "), command: command)
        }
        self.transport = transport
        var rest = String(text[text.index(after: colon)...])
        if let slash = rest.lastIndex(of: "/"), !Self.isInSimulatorPath(rest, slash: slash, transport: transport) {
            let candidate = String(rest[rest.index(after: slash)...])
            if let address = DeviceAddress(string: candidate) {
                self.address = address
                rest = String(rest[..<slash])
            } else if Self.meantAsAddress(candidate, slash: slash, in: rest, transport: transport) {
                throw UsageError("'\(candidate)' in --device is not a device address like C0:FF:EE:00:00:01", command: command)
            }
            // Otherwise the slash belongs to a path: `sim:...?key=keys/pub.pem`, `hci:unix:/run/hci.sock`.
        }
        guard !rest.isEmpty else {
            throw UsageError("--device '\(text)' names no \(transport.rawValue) target", command: command)
        }
        self.target = rest
        if transport == .sim {
            // Read now, so that a wrong option is reported before any profile or package is read.
            do {
                try SimulatedDeviceCatalog.check(try SimulatorConfiguration(parsing: rest))
            } catch {
                throw UsageError(error.description, command: command)
            }
        }
    }

    /// Whether what follows the last `/` was meant as an address: it has colons and nothing a
    /// path or an option has (`.`, `=`, `&`), or it follows a simulated device's name (which
    /// has no `/`) outside its `?options`.
    private static func meantAsAddress(_ candidate: String, slash: String.Index, in rest: String, transport: Transport) -> Bool {
        if candidate.contains(":"), !candidate.contains(where: { ".=&?".contains($0) }) { return true }
        guard transport == .sim else { return false }
        guard let query = rest.firstIndex(of: "?") else { return true }
        return slash < query
    }

    /// Whether the `/` at `slash` belongs to a file path of a `sim:` option (`state=/tmp/x.json`):
    /// it comes after the `?` and what follows it is no device address.
    private static func isInSimulatorPath(_ text: String, slash: String.Index, transport: Transport) -> Bool {
        guard transport == .sim, let question = text.firstIndex(of: "?"), question < slash else { return false }
        return DeviceAddress(string: String(text[text.index(after: slash)...])) == nil
    }
}
