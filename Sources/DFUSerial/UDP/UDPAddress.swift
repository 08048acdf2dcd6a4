/// Where a UDP device listens: a host (an IPv4 or IPv6 address, or a name getaddrinfo resolves)
/// and a port. Written `udp:HOST:PORT`, `HOST:PORT`, or with an IPv6 address in brackets:
/// `udp:[::1]:1337`.
public struct UDPAddress: Sendable, Hashable, CustomStringConvertible {
    /// `127.0.0.1`, `::1`, `device.local`.
    public var host: String
    /// The UDP port: Zephyr's SMP server uses 1337 by default.
    public var port: UInt16

    /// `port` on `host`.
    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// The address written as `udp:HOST:PORT`, `HOST:PORT` or `[IPv6]:PORT`.
    /// - Throws: when the host or the port is missing or malformed, with the form to use.
    public init(parsing text: String) throws(WireSettingError) {
        let body = text.hasPrefix("udp:") ? String(text.dropFirst(4)) : text
        func refuse(_ detail: String) -> WireSettingError {
            WireSettingError(setting: "udp address", value: text,
                             detail: "\(detail); write udp:HOST:PORT, e.g. udp:127.0.0.1:1337 or udp:[::1]:1337")
        }
        let host: Substring
        let portText: Substring
        if body.hasPrefix("[") {
            guard let close = body.firstIndex(of: "]") else { throw refuse("an IPv6 address opened with [ is not closed with ]") }
            host = body[body.index(after: body.startIndex)..<close]
            let rest = body[body.index(after: close)...]
            guard rest.hasPrefix(":") else { throw refuse("no :PORT after the IPv6 address") }
            portText = rest.dropFirst()
        } else {
            guard let colon = body.lastIndex(of: ":") else { throw refuse("no port") }
            host = body[..<colon]
            portText = body[body.index(after: colon)...]
            if host.contains(":") { throw refuse("an IPv6 address must be written in brackets") }
        }
        guard !host.isEmpty else { throw refuse("no host") }
        guard let port = UInt16(portText), port != 0 else { throw refuse("the port must be a number from 1 to 65535") }
        self.init(host: String(host), port: port)
    }

    /// `127.0.0.1:1337`, `[::1]:1337`.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
