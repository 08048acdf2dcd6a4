import DFUGATT

/// `--device TRANSPORT[/ADDRESS]`: which transport, and optionally which device on it.
/// `sim:vendor-ctrlpt?mtu=247&fault=disconnect-after:40000/C0:FF:EE:00:00:01`,
/// `hci:tcp:127.0.0.1:9002/F0:01:02:03:04:05`, `bluez:hci0`. A slash in the value of the last
/// option (`sim:vendor-ctrlpt?fleet=200&journal=/tmp/line-1`) is part of the value unless what
/// follows the last slash is an address.
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
        if let slash = rest.lastIndex(of: "/") {
            let candidate = String(rest[rest.index(after: slash)...])
            if let address = DeviceAddress(string: candidate) {
                self.address = address
                rest = String(rest[..<slash])
            } else if !Self.isInOptionValue(slash, of: rest) {
                throw UsageError("'\(candidate)' in --device is not a device address like C0:FF:EE:00:00:01", command: command)
            }
        }
        guard !rest.isEmpty else {
            throw UsageError("--device '\(text)' names no \(transport.rawValue) target", command: command)
        }
        self.target = rest
    }

    /// Whether the slash at `index` lies in the value of the last `key=value` option, as in
    /// `sim:vendor-ctrlpt?fleet=200&journal=/tmp/line-1` (a path, not `/ADDRESS`).
    private static func isInOptionValue(_ index: String.Index, of target: String) -> Bool {
        guard let query = target.firstIndex(of: "?"), query < index else { return false }
        let pairStart = target[..<index].lastIndex(of: "&") ?? query
        return target[pairStart..<index].contains("=")
    }
}
