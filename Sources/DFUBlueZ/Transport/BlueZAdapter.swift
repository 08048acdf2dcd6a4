#if canImport(Glibc)
import Glibc
#endif
import DFUGATT

/// An adapter `hciN`: looking it up (is there one, is it up) and opening a raw HCI socket on it.
public struct BlueZAdapter: Sendable {
    /// "hci0".
    public let name: String
    public let index: UInt16
    private let syscalls: any BlueZSyscalls

    /// `name` must be `hciN`.
    public init?(name: String, syscalls: any BlueZSyscalls = SystemBlueZSyscalls()) {
        guard name.hasPrefix("hci"), let index = UInt16(name.dropFirst(3)), String(index) == name.dropFirst(3) else {
            return nil
        }
        self.name = name
        self.index = index
        self.syscalls = syscalls
    }

    private func fail(_ operation: String, _ error: SystemErrno) -> BlueZError {
        BlueZError(operation, errno: error, adapter: name)
    }

    /// A raw HCI socket (socket(AF_BLUETOOTH, SOCK_RAW | SOCK_CLOEXEC, BTPROTO_HCI)).
    private func hciSocket() throws(BlueZError) -> Int32 {
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

    /// Scans for LE advertisements for `duration` (or until `stop` says a report is enough):
    /// active scanning through libbluetooth (LE Set Scan Parameters, LE Set Scan Enable) on a
    /// raw HCI socket bound to the adapter, reading LE Advertising Report events through an HCI
    /// filter. Blocking: run it on its own thread.
    public func scan(for duration: Duration,
                     stop: (BlueZScanResults) -> Bool = { _ in false }) throws(BlueZError) -> BlueZScanResults {
        let descriptor = try hciSocket()
        defer { syscalls.close(descriptor) }
        _ = try info(on: descriptor)
        if case let .failure(error) = syscalls.bind(descriptor, address: HCISocketAddress(index: index).bytes) {
            throw fail("bind", error)
        }
        // A scan left running (by another tool) makes the parameters fail: stop it first.
        _ = syscalls.leSetScanEnable(descriptor, enable: false, filterDuplicates: false, timeoutMilliseconds: 1000)
        if case let .failure(error) = syscalls.leSetScanParameters(descriptor, active: true, interval: 0x0010,
                                                                   window: 0x0010, timeoutMilliseconds: 1000) {
            throw fail("LE Set Scan Parameters", error)
        }
        if case let .failure(error) = syscalls.setSocketOption(descriptor, level: BlueZConstants.solHCI,
                                                               option: BlueZConstants.hciFilter,
                                                               value: HCISocketFilter.leMetaEvents.bytes) {
            throw fail("setsockopt HCI_FILTER", error)
        }
        if case let .failure(error) = syscalls.leSetScanEnable(descriptor, enable: true, filterDuplicates: false,
                                                               timeoutMilliseconds: 1000) {
            throw fail("LE Set Scan Enable", error)
        }
        defer { _ = syscalls.leSetScanEnable(descriptor, enable: false, filterDuplicates: false, timeoutMilliseconds: 1000) }

        var results = BlueZScanResults()
        let clock = ContinuousClock()
        let deadline = clock.now + duration
        while !stop(results) {
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else { break }
            let milliseconds = Int32(clamping: remaining.components.seconds * 1000
                                     + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            switch syscalls.poll([descriptor], timeoutMilliseconds: milliseconds) {
            case let .success(events):
                guard events.first ?? 0 != 0 else { continue }
            case .failure(.interrupted): continue
            case let .failure(error): throw fail("poll", error)
            }
            switch syscalls.read(descriptor, maximumLength: 260) {
            case let .success(packet):
                results.add(hciPacket: packet)
            case .failure(.interrupted), .failure(.wouldBlock): continue
            case let .failure(error): throw fail("read", error)
            }
        }
        return results
    }
}
