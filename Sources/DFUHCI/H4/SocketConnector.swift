#if canImport(Glibc)
import Glibc
#endif

/// Opens stream sockets to a controller exposed as H4 over TCP or a UNIX socket (Bumble's
/// `tcp-server:` and `unix-server:` transports, a btproxy, an emulator).
enum SocketConnector {
    static func connectTCP(host: String, port: UInt16, name: String) throws(HCIError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let lookup = getaddrinfo(host, String(port), &hints, &list)
        guard lookup == 0, let first = list else {
            let reason = String(cString: gai_strerror(lookup))
            throw HCIError(.transportUnavailable, detail: "\(name): cannot resolve '\(host)': \(reason)")
        }
        defer { freeaddrinfo(list) }
        var lastErrno: Int32 = 0
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let descriptor = socket(info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue),
                                    info.pointee.ai_protocol)
            guard descriptor >= 0 else {
                lastErrno = errno
                continue
            }
            if connect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 {
                // Small HCI packets must not wait for Nagle's algorithm.
                var on: Int32 = 1
                _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
                return descriptor
            }
            lastErrno = errno
            closeDescriptor(descriptor)
        }
        throw HCIError(.transportUnavailable,
                       detail: "\(name): cannot connect: \(errnoDescription(lastErrno)); is the controller (e.g. Bumble) listening there?")
    }

    static func connectUnix(path: String, name: String) throws(HCIError) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else {
            throw HCIError(.transportUnavailable, detail: "\(name): socket path longer than \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: pathBytes)
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw HCIError(.transportUnavailable, detail: "\(name): socket: \(errnoDescription(errno))")
        }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let failure = errno
            closeDescriptor(descriptor)
            throw HCIError(.transportUnavailable, detail: "\(name): cannot connect: \(errnoDescription(failure))")
        }
        return descriptor
    }

    static func closeDescriptor(_ descriptor: Int32) {
        _ = Glibc.close(descriptor)
    }
}

/// "Connection refused (ECONNREFUSED)" style text for an errno value.
func errnoDescription(_ code: Int32) -> String {
    let names: [Int32: String] = [
        EACCES: "EACCES", EPERM: "EPERM", ENOENT: "ENOENT", ECONNREFUSED: "ECONNREFUSED", EBUSY: "EBUSY",
        ENODEV: "ENODEV", EAFNOSUPPORT: "EAFNOSUPPORT", ETIMEDOUT: "ETIMEDOUT", EPIPE: "EPIPE",
        ECONNRESET: "ECONNRESET", EIO: "EIO", ENOTTY: "ENOTTY", EHOSTUNREACH: "EHOSTUNREACH",
    ]
    let text = String(cString: strerror(code))
    return names[code].map { "\(text) (\($0))" } ?? "\(text) (errno \(code))"
}
