#if canImport(Glibc)
import Glibc
#endif

/// A `struct sockaddr_in` or `sockaddr_in6`, kept as its C bytes so it can travel through the
/// syscall seam and be compared in tests.
package struct SocketAddress: Sendable, Hashable, CustomStringConvertible {
    /// The C structure's bytes.
    package let bytes: [UInt8]

    /// The address whose C structure is `bytes`.
    package init(bytes: [UInt8]) { self.bytes = bytes }

    /// The address of `storage`, `length` bytes of it.
    package init(storage: sockaddr_storage, length: socklen_t) {
        let count = min(Int(length), MemoryLayout<sockaddr_storage>.size)
        bytes = withUnsafeBytes(of: storage) { Array($0.prefix(count)) }
    }

    /// AF_INET or AF_INET6 (AF_UNSPEC when the bytes are too short to say).
    package var family: Int32 {
        guard bytes.count >= MemoryLayout<sa_family_t>.size else { return AF_UNSPEC }
        return Int32(UInt16(bytes[0]) | UInt16(bytes[1]) << 8)
    }

    /// The port, in host order (0 for a family without one).
    package var port: UInt16 {
        // sin_port and sin6_port sit at the same offset, in network order.
        guard family == AF_INET || family == AF_INET6, bytes.count >= 4 else { return 0 }
        return UInt16(bytes[2]) << 8 | UInt16(bytes[3])
    }

    /// The host part as inet_ntop(3) writes it: "127.0.0.1", "::1".
    package var host: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let written: Bool = bytes.withUnsafeBytes { raw in
            switch family {
            case AF_INET where raw.count >= MemoryLayout<sockaddr_in>.size:
                var address = raw.loadUnaligned(as: sockaddr_in.self).sin_addr
                return inet_ntop(AF_INET, &address, &text, socklen_t(text.count)) != nil
            case AF_INET6 where raw.count >= MemoryLayout<sockaddr_in6>.size:
                var address = raw.loadUnaligned(as: sockaddr_in6.self).sin6_addr
                return inet_ntop(AF_INET6, &address, &text, socklen_t(text.count)) != nil
            default:
                return false
            }
        }
        guard written else { return "(address family \(family))" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// "127.0.0.1:1337", "[::1]:1337".
    package var description: String {
        family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Calls `body` with the C structure.
    package func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        var storage = sockaddr_storage()
        let count = min(bytes.count, MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutableBytes(of: &storage) { $0.copyBytes(from: bytes.prefix(count)) }
        return withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(count)) }
        }
    }
}
