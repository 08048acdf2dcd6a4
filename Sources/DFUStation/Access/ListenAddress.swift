import Foundation

/// Where the dashboard listens: a numeric IPv4 or IPv6 address and a port (0: the kernel chooses).
/// Parsed from `HOST:PORT`, `[IPv6]:PORT` or `localhost:PORT`.
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address, as inet_ntop writes it (`127.0.0.1`, `::1`).
    public var host: String
    /// The port; 0 before the server starts means "any free port".
    public var port: UInt16
    /// Whether `host` is an IPv6 address.
    public var isIPv6: Bool

    /// The contract's default: `127.0.0.1:8080`.
    public static let standard = ListenAddress(checkedHost: "127.0.0.1", port: 8080, isIPv6: false)

    private init(checkedHost: String, port: UInt16, isIPv6: Bool) {
        host = checkedHost
        self.port = port
        self.isIPv6 = isIPv6
    }

    /// Parses `text`; throws `.invalidListenAddress` saying what is wrong, with an example.
    public init(parsing text: String) throws(DashboardServerError) {
        func invalid(_ problem: String) -> DashboardServerError {
            DashboardServerError(.invalidListenAddress, "'\(text)' is not an address to listen on: \(problem); "
                                 + "give HOST:PORT with a numeric address, e.g. 127.0.0.1:8080, 0.0.0.0:8080 or [::1]:8080")
        }
        var hostText: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw invalid("the IPv6 address has no closing ']'") }
            hostText = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw invalid("no ':PORT' after the IPv6 address") }
            portText = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw invalid("no ':PORT'") }
            hostText = text[..<colon]
            portText = text[text.index(after: colon)...]
            if hostText.contains(":") { throw invalid("write an IPv6 address in brackets") }
        }
        guard let port = UInt16(portText) else { throw invalid("the port '\(portText)' is not a number from 0 to 65535") }
        if hostText == "localhost" { hostText = "127.0.0.1" }
        guard !hostText.isEmpty else { throw invalid("no host before the port") }
        guard let (normalized, isIPv6) = Self.numeric(String(hostText)) else {
            throw invalid("'\(hostText)' is not a numeric IPv4 or IPv6 address")
        }
        self.init(checkedHost: normalized, port: port, isIPv6: isIPv6)
    }

    /// `host` normalized by inet_pton and inet_ntop, and whether it is IPv6; nil when it is neither.
    private static func numeric(_ host: String) -> (String, Bool)? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        func text() -> String { String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1, inet_ntop(AF_INET, &v4, &buffer, socklen_t(buffer.count)) != nil {
            return (text(), false)
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1, inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count)) != nil {
            return (text(), true)
        }
        return nil
    }

    /// Whether only this machine can reach the address: 127.0.0.0/8, `::1`, or an IPv4-mapped
    /// loopback address (`::ffff:127.0.0.1`).
    public var isLoopback: Bool {
        if !isIPv6 { return host.hasPrefix("127.") }
        return host == "::1" || host.lowercased().hasPrefix("::ffff:127.")
    }

    /// The same address with another port (the one the kernel chose).
    public func with(port: UInt16) -> ListenAddress {
        ListenAddress(checkedHost: host, port: port, isIPv6: isIPv6)
    }

    /// `127.0.0.1:8080`, `[::1]:8080`.
    public var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The page's address, `http://127.0.0.1:8080/`.
    public var url: String { "http://\(description)/" }
}
