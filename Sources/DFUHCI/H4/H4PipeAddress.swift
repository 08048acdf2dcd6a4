/// Where a controller is, as a user writes it after `--device`:
/// `hci:tcp:HOST:PORT`, `hci:unix:PATH`, `hci:serial:PATH[,BAUD]`, `hci:user:N`.
/// The leading `hci:` is optional.
package enum H4PipeAddress: Sendable, Hashable, CustomStringConvertible {
    case tcp(host: String, port: UInt16)
    case unix(path: String)
    case serial(path: String, baudRate: Int)
    /// HCI user channel on adapter hciN (exclusive access; the kernel's host stack steps aside).
    case userChannel(index: UInt16)

    package static let defaultBaudRate = 1_000_000

    package init(parsing text: String) throws(HCIError) {
        var rest = Substring(text)
        if rest.hasPrefix("hci:") { rest = rest.dropFirst(4) }
        guard let colon = rest.firstIndex(of: ":") else {
            throw Self.usage(text, "no transport kind")
        }
        let kind = rest[..<colon]
        let argument = String(rest[rest.index(after: colon)...])
        switch kind {
        case "tcp":
            guard let portColon = argument.lastIndex(of: ":") else {
                throw Self.usage(text, "tcp needs HOST:PORT")
            }
            var host = String(argument[..<portColon])
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty, let port = UInt16(argument[argument.index(after: portColon)...]), port > 0 else {
                throw Self.usage(text, "tcp needs HOST:PORT with a port from 1 to 65535")
            }
            self = .tcp(host: host, port: port)
        case "unix":
            guard !argument.isEmpty else { throw Self.usage(text, "unix needs a socket path") }
            self = .unix(path: argument)
        case "serial":
            let parts = argument.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
            guard let path = parts.first, !path.isEmpty else { throw Self.usage(text, "serial needs a device path") }
            var baudRate = Self.defaultBaudRate
            if parts.count == 2 {
                guard let rate = Int(parts[1]), SerialPort.speedConstant(for: rate) != nil else {
                    throw Self.usage(text, "unsupported baud rate '\(parts[1])' (e.g. 115200, 1000000, 3000000)")
                }
                baudRate = rate
            }
            self = .serial(path: String(path), baudRate: baudRate)
        case "user":
            guard let index = UInt16(argument) else { throw Self.usage(text, "user needs an adapter number, e.g. hci:user:0") }
            self = .userChannel(index: index)
        default:
            throw Self.usage(text, "unknown transport kind '\(kind)'")
        }
    }

    private static func usage(_ text: String, _ problem: String) -> HCIError {
        HCIError(.transportUnavailable,
                 detail: "'\(text)': \(problem); use hci:tcp:HOST:PORT, hci:unix:PATH, hci:serial:PATH[,BAUD] or hci:user:N")
    }

    package var description: String {
        switch self {
        case let .tcp(host, port): return "hci:tcp:\(host.contains(":") ? "[\(host)]" : host):\(port)"
        case let .unix(path): return "hci:unix:\(path)"
        case let .serial(path, baudRate): return "hci:serial:\(path),\(baudRate)"
        case let .userChannel(index): return "hci:user:\(index)"
        }
    }

    /// Opens the transport.
    package func open() throws(HCIError) -> any H4Pipe {
        let descriptor: Int32
        switch self {
        case let .tcp(host, port): descriptor = try SocketConnector.connectTCP(host: host, port: port, name: description)
        case let .unix(path): descriptor = try SocketConnector.connectUnix(path: path, name: description)
        case let .serial(path, baudRate): descriptor = try SerialPort.open(path: path, baudRate: baudRate, name: description)
        case let .userChannel(index): descriptor = try HCIUserChannel.open(index: index, name: description)
        }
        do {
            return try H4StreamPipe(descriptor: descriptor, name: description)
        } catch {
            SocketConnector.closeDescriptor(descriptor)
            throw error
        }
    }
}
