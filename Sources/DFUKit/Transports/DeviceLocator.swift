/// A device string split into its parts: `SCHEME:TARGET[/ADDRESS]`, e.g.
/// `sim:vendor-ctrlpt?mtu=247/C0:FF:EE:00:00:01`, `hci:tcp:127.0.0.1:9002`, `bluez:hci0`.
/// The scheme picks the `TransportScheme`; the target is the scheme's own business; the
/// address, when given, is the device to use (else the first that matches the profile).
public struct DeviceLocator: Sendable, Equatable, CustomStringConvertible {
    /// The transport scheme, without its colon: `sim`, `hci`, `bluez`, or a registered one.
    public var scheme: String
    /// Everything after `SCHEME:` and before `/ADDRESS`.
    public var target: String
    /// The device's address, when the string names one.
    public var address: DeviceAddress?

    /// A locator from its parts.
    public init(scheme: String, target: String, address: DeviceAddress? = nil) {
        self.scheme = scheme
        self.target = target
        self.address = address
    }

    /// Splits `text`: the scheme before the first `:`; a last `/`-separated part that is a
    /// device address is the address (any other `/` belongs to the target: a path such as
    /// `state=/tmp/x.json` or `unix:/run/hci.sock`). What was plainly meant as an address but is
    /// none (`sim:vendor-ctrlpt/zz`, `hci:tcp:h:1/C0:FF`) is refused rather than read as a target.
    /// This is the one parser of device strings: the command line uses it too.
    /// - Throws: `.usage` when there is no scheme or no target, or for a malformed address.
    public init(parsing text: String) throws(DFUKitError) {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
            throw DFUKitError(kind: .usage, message: "device '\(text)' must start with a transport scheme such as sim:, hci: or bluez:")
        }
        scheme = String(text[..<colon])
        var rest = String(text[text.index(after: colon)...])
        if let slash = rest.lastIndex(of: "/") {
            let candidate = String(rest[rest.index(after: slash)...])
            if let address = DeviceAddress(string: candidate) {
                self.address = address
                rest = String(rest[..<slash])
            } else if Self.meantAsAddress(candidate, slash: slash, in: rest, scheme: scheme) {
                throw DFUKitError(kind: .usage, message: "'\(candidate)' in device '\(text)' is not a device address "
                                  + "like C0:FF:EE:00:00:01")
            }
        }
        guard !rest.isEmpty else {
            throw DFUKitError(kind: .usage, message: "device '\(text)' names no \(scheme): target")
        }
        target = rest
    }

    /// Whether what follows the last `/` was meant as an address: it has colons and nothing a
    /// path or an option has (`.`, `=`, `&`, `?`), or it follows a simulated device's name
    /// (which has no `/`) outside its `?options`.
    private static func meantAsAddress(_ candidate: String, slash: String.Index, in rest: String, scheme: String) -> Bool {
        if candidate.contains(":"), !candidate.contains(where: { ".=&?".contains($0) }) { return true }
        guard scheme == "sim" else { return false }
        guard let query = rest.firstIndex(of: "?") else { return true }
        return slash < query
    }

    /// `SCHEME:TARGET[/ADDRESS]`.
    public var description: String {
        "\(scheme):\(target)" + (address.map { "/\($0)" } ?? "")
    }
}
