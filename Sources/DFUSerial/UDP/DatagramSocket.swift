import DFUWire
#if canImport(Glibc)
import Glibc
#endif

/// A non-blocking UDP socket for `address`, tried on each address the name resolves to until
/// one can be connected (a client) or bound (a server): what `UDPWire` and `UDPServerWire`
/// both open.
enum DatagramSocket {
    /// How the socket is attached to the address.
    enum Attachment {
        /// Connected to the device at the address (a client).
        case connect
        /// Bound to it, to hear any client (a simulated device's server).
        case bind
    }

    /// The descriptor and the address it is attached to (for a server, the one the kernel bound).
    /// - Throws: `.unavailable`, naming what failed for each address tried.
    static func open(_ address: UDPAddress, attaching attachment: Attachment, name: String,
                     syscalls: any WireSyscalls) throws(WireError) -> (Int32, SocketAddress) {
        let candidates: [SocketAddress]
        switch syscalls.resolve(host: address.host, port: address.port, passive: attachment == .bind) {
        case let .success(addresses): candidates = addresses
        case let .failure(failure):
            throw WireError(.unavailable, wire: name, detail: "cannot resolve \(address.host): \(failure.message)")
        }
        var problems: [String] = []
        for candidate in candidates {
            let descriptor: Int32
            switch syscalls.socket(domain: candidate.family,
                                   type: Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue),
                                   protocol: 0) {
            case let .success(opened): descriptor = opened
            case let .failure(error):
                problems.append("\(candidate): socket: \(error)")
                continue
            }
            let attached = attachment == .connect ? syscalls.connect(descriptor, to: candidate)
                : syscalls.bind(descriptor, to: candidate)
            switch attached {
            case .success:
                guard attachment == .bind, case let .success(bound) = syscalls.localAddress(descriptor) else {
                    return (descriptor, candidate)
                }
                return (descriptor, bound)
            case let .failure(error):
                syscalls.close(descriptor)
                let hint = attachment == .bind && error == .addressInUse
                    ? " (another server listens there: stop it, or choose another port)" : ""
                problems.append("\(candidate): \(attachment == .connect ? "connect" : "bind"): \(error)\(hint)")
            }
        }
        throw WireError(.unavailable, wire: name,
                        detail: problems.isEmpty ? "\(address.host) has no address"
                            : (attachment == .connect ? "cannot reach it: " : "cannot listen: ")
                                + problems.joined(separator: "; "))
    }
}
