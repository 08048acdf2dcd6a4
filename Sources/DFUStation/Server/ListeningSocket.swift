import Foundation

/// A TCP socket bound to a `ListenAddress` and listening, made here rather than by libmicrohttpd
/// so that a failure says exactly why (the port is in use, the address is not on this machine) and
/// the port the kernel chose is known.
enum ListeningSocket {
    /// A listening socket on `address` and the port it is bound to; throws `.cannotListen`.
    static func open(_ address: ListenAddress, backlog: Int32 = 64) throws(DashboardServerError) -> (socket: Int32, port: UInt16) {
        let family = address.isIPv6 ? AF_INET6 : AF_INET
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw failure(address, "cannot make a socket") }
        var yes: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        if address.isIPv6 {
            _ = setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &yes, socklen_t(MemoryLayout<Int32>.size))
        }
        let bound: Int32
        if address.isIPv6 {
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = address.port.bigEndian
            _ = inet_pton(AF_INET6, address.host, &socketAddress.sin6_addr)
            bound = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = address.port.bigEndian
            _ = inet_pton(AF_INET, address.host, &socketAddress.sin_addr)
            bound = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard bound == 0 else {
            let error = failure(address, "cannot bind")
            close(descriptor)
            throw error
        }
        guard listen(descriptor, backlog) == 0 else {
            let error = failure(address, "cannot listen")
            close(descriptor)
            throw error
        }
        return (descriptor, boundPort(descriptor) ?? address.port)
    }

    /// The local port of `descriptor`.
    private static func boundPort(_ descriptor: Int32) -> UInt16? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard status == 0 else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET: return withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) } }
        case AF_INET6: return withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) } }
        default: return nil
        }
    }

    /// `.cannotListen` for the current `errno`, with what to do about the usual causes.
    private static func failure(_ address: ListenAddress, _ what: String) -> DashboardServerError {
        let code = errno
        let reason = String(cString: strerror(code))
        let advice: String
        switch code {
        case EADDRINUSE: advice = "another program (or another dashboard) listens there: stop it or choose another port"
        case EADDRNOTAVAIL: advice = "this machine has no such address: give one of its own, or 0.0.0.0 for all of them"
        case EACCES: advice = "ports below 1024 need root: choose a port from 1024 up"
        default: advice = "check the address and port"
        }
        return DashboardServerError(.cannotListen, "\(what) on \(address): \(reason); \(advice)")
    }
}
