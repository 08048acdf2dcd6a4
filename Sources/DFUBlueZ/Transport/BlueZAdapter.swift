#if canImport(Glibc)
import Glibc
#endif
import DFUGATT

/// An adapter `hciN`: looking it up (is there one, is it up) and scanning through it.
public struct BlueZAdapter: Sendable {
    /// "hci0".
    public let name: String
    /// N of `hciN`.
    public let index: UInt16
    let syscalls: any BlueZSyscalls

    /// `name` must be `hciN`.
    public init?(name: String, syscalls: any BlueZSyscalls = SystemBlueZSyscalls()) {
        guard name.hasPrefix("hci"), let index = UInt16(name.dropFirst(3)), String(index) == name.dropFirst(3) else {
            return nil
        }
        self.name = name
        self.index = index
        self.syscalls = syscalls
    }

    func fail(_ operation: String, _ error: SystemErrno) -> BlueZError {
        BlueZError(operation, errno: error, adapter: name)
    }

    /// An HCI socket (socket(AF_BLUETOOTH, SOCK_RAW | SOCK_CLOEXEC, BTPROTO_HCI)): unbound it
    /// answers HCIGETDEVINFO; bound to the control channel it carries management commands.
    func hciSocket() throws(BlueZError) -> Int32 {
        let type = Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        switch syscalls.socket(domain: BlueZConstants.addressFamily, type: type, protocol: BlueZConstants.protocolHCI) {
        case let .success(descriptor): return descriptor
        case let .failure(error): throw fail("socket", error)
        }
    }

    /// HCIGETDEVINFO on a fresh HCI socket: the adapter's address; ENODEV when it does not
    /// exist, ENETDOWN when it is not up.
    public func info() throws(BlueZError) -> BlueZAdapterInfo {
        let descriptor = try hciSocket()
        defer { syscalls.close(descriptor) }
        return try info(on: descriptor)
    }

    private func info(on descriptor: Int32) throws(BlueZError) -> BlueZAdapterInfo {
        switch syscalls.adapterInfo(descriptor, index: index) {
        case let .success(info):
            guard info.isUp else { throw fail("HCIGETDEVINFO", .networkDown) }
            return info
        case let .failure(error):
            throw fail("HCIGETDEVINFO", error)
        }
    }

    /// Scans for LE advertisements for `duration` (or until `stop` says what was heard is
    /// enough) through the kernel's management interface: Start Discovery (LE public and
    /// random) on an HCI_CHANNEL_CONTROL socket, Device Found events until the deadline, then
    /// Stop Discovery. The kernel runs the scan, so it pauses and restores the background scan
    /// of its own pending connections. Discovery that the kernel ends early (LE discovery lasts
    /// about 10 s) is started again; discovery already running (bluetoothd's: Busy) is listened
    /// to. Needs CAP_NET_ADMIN. Blocking: run it on its own thread.
    public func scan(for duration: Duration,
                     stop: (BlueZScanResults) -> Bool = { _ in false }) throws(BlueZError) -> BlueZScanResults {
        _ = try info()
        let descriptor = try openManagementSocket()
        defer { syscalls.close(descriptor) }
        var discovery = MgmtDiscovery(index: index)
        var results = BlueZScanResults()
        try send(discovery.start(), on: descriptor)
        defer {
            if let command = discovery.finish() { _ = syscalls.write(descriptor, bytes: command.bytes) }
        }
        let deadline = ContinuousClock.now + duration
        while !(discovery.isListening && stop(results)) {
            guard let packet = try nextManagementPacket(on: descriptor, before: deadline) else { break }
            switch discovery.handle(MgmtEvent(bytes: packet)) {
            case .none: results.add(mgmtPacket: packet, index: index)
            case let .send(command): try send(command, on: descriptor)
            case let .fail(status): throw BlueZError("mgmt Start Discovery", status: status, adapter: name)
            }
        }
        guard discovery.isListening else {
            throw BlueZError("mgmt Start Discovery", errno: .timedOut, adapter: name,
                             note: "the kernel did not answer within \(duration.secondsText)")
        }
        return results
    }

    func send(_ command: MgmtCommand, on descriptor: Int32) throws(BlueZError) {
        while true {
            switch syscalls.write(descriptor, bytes: command.bytes) {
            case .success: return
            case .failure(.interrupted): continue
            case let .failure(error): throw fail("write (management channel)", error)
            }
        }
    }
}
