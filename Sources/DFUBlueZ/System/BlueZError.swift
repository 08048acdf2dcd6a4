import DFUGATT

/// A failed BlueZ syscall: which call, on which adapter (and device), with which errno, and
/// what to do about it.
public struct BlueZError: Error, Sendable, CustomStringConvertible {
    /// The call that failed ("socket", "bind", "connect", "setsockopt BT_SECURITY"...).
    public var operation: String
    package var errno: SystemErrno
    /// "hci0".
    public var adapter: String
    /// The device concerned, when the call was about one.
    public var address: DeviceAddress?
    /// What happened and what to do, when the errno's usual explanation does not fit.
    public var note: String?

    /// An error of `operation` on `adapter` that failed with `errno`.
    public init(_ operation: String, errno: SystemErrno, adapter: String, address: DeviceAddress? = nil,
                note: String? = nil) {
        self.operation = operation
        self.errno = errno
        self.adapter = adapter
        self.address = address
        self.note = note
    }

    /// A management command refused with `status`: the operation names the status, the errno
    /// is the one the kernel uses for it (so the explanation and `isAdapterProblem` apply).
    public init(_ operation: String, status: MgmtStatus, adapter: String) {
        let errno: SystemErrno
        switch status {
        case .permissionDenied: errno = .operationNotPermitted
        case .notPowered: errno = .networkDown
        case .invalidIndex: errno = .noDevice
        case .rfKilled: errno = .rfKilled
        case .busy: errno = .busy
        case .notSupported, .unknownCommand: errno = .notSupported
        default: errno = .ioError
        }
        self.init("\(operation): \(status)", errno: errno, adapter: adapter)
    }

    /// What the errno means here, and what to do.
    package var explanation: String {
        if let note { return note }
        switch errno {
        case .addressFamilyNotSupported:
            return "this kernel has no Bluetooth support (no AF_BLUETOOTH); use a kernel with Bluetooth, "
                + "or hci:tcp:/hci:serial: with a controller DFUKit drives itself"
        case .noDevice:
            return "no adapter \(adapter)"
        case .networkDown, .hostDown:
            return "adapter \(adapter) is down; run `btmgmt -i \(adapter) power on`"
        case .operationNotPermitted, .permissionDenied:
            return "not permitted: needs CAP_NET_ADMIN (scanning goes through the kernel's management interface): "
                + "run as root or `sudo setcap cap_net_admin+eip $(which dfukit)`"
        case .rfKilled:
            return "adapter \(adapter) is blocked by rfkill; run `rfkill unblock bluetooth`"
        case .connectionRefused:
            return "the device refused the connection"
        case .timedOut:
            return "the device did not answer the connection (is it advertising and in range?)"
        case .hostUnreachable:
            return "the device cannot be reached through \(adapter) (wrong address type, or out of range?)"
        default:
            return errno.message
        }
    }

    /// Whether the adapter itself cannot be used (rather than one device).
    package var isAdapterProblem: Bool {
        [.addressFamilyNotSupported, .noDevice, .networkDown, .hostDown, .operationNotPermitted,
         .permissionDenied, .rfKilled].contains(errno)
    }

    public var description: String {
        "bluez:\(adapter): \(operation): \(explanation) (\(errno.name))"
    }

    /// As the GATT layer reports it.
    package var gattError: GATTError {
        if isAdapterProblem {
            return GATTError(.transportUnavailable, detail: description)
        }
        // A link that times out or becomes unreachable once made was lost, not refused.
        if operation.hasPrefix("connect") {
            return GATTError(.connectionFailed, address: address?.description, detail: description)
        }
        // A management command the kernel did not answer (a link that timed out was lost: below).
        if errno == .timedOut, operation.hasPrefix("mgmt") {
            return GATTError(.timeout, address: address?.description, detail: description)
        }
        return GATTError(.disconnected, address: address?.description, detail: description)
    }
}
