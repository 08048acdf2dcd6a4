#if canImport(Glibc)
import Glibc
#endif

/// The Linux HCI user channel: an AF_BLUETOOTH socket bound to hciN with HCI_CHANNEL_USER gives
/// this process the raw controller (the adapter must be down: `btmgmt -i N power off`; needs
/// CAP_NET_ADMIN). Each read returns one whole H4 packet.
package enum HCIUserChannel {
    /// PF_BLUETOOTH / AF_BLUETOOTH.
    static let addressFamily: Int32 = 31
    static let protocolHCI: Int32 = 1
    static let channelUser: UInt16 = 1

    /// socket(2), replaceable in tests (the syscall seam).
    package typealias SocketCall = @Sendable (_ domain: Int32, _ type: Int32, _ protocol: Int32) -> (descriptor: Int32, errno: Int32)

    package static let systemSocket: SocketCall = { domain, type, proto in
        let descriptor = socket(domain, type, proto)
        return (descriptor, descriptor < 0 ? errno : 0)
    }

    /// sockaddr_hci.
    private struct SocketAddress {
        var family: UInt16
        var device: UInt16
        var channel: UInt16
    }

    package static func open(index: UInt16, name: String? = nil, socketCall: SocketCall = systemSocket) throws(HCIError) -> Int32 {
        let name = name ?? H4PipeAddress.userChannel(index: index).description
        let (descriptor, failure) = socketCall(addressFamily, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
                                               protocolHCI)
        guard descriptor >= 0 else {
            if failure == EAFNOSUPPORT {
                throw HCIError(.transportUnavailable,
                               detail: "this kernel has no Bluetooth sockets (EAFNOSUPPORT); \(name) needs a kernel with "
                                   + "Bluetooth support; use hci:tcp:, hci:unix: or hci:serial: instead")
            }
            throw HCIError(.transportUnavailable, detail: "\(name): socket: \(errnoDescription(failure))")
        }
        var address = SocketAddress(family: UInt16(addressFamily), device: index, channel: channelUser)
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<SocketAddress>.size))
            }
        }
        guard result == 0 else {
            let failure = errno
            SocketConnector.closeDescriptor(descriptor)
            let hint: String
            switch failure {
            case EBUSY: hint = "; the adapter is up: power it off first (btmgmt -i \(index) power off)"
            case EPERM, EACCES: hint = "; needs CAP_NET_ADMIN (run as root or setcap)"
            case ENODEV: hint = "; no adapter hci\(index)"
            default: hint = ""
            }
            throw HCIError(.transportUnavailable, detail: "\(name): bind: \(errnoDescription(failure))\(hint)")
        }
        return descriptor
    }
}
