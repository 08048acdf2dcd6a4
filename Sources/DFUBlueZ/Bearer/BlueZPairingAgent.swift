#if canImport(Glibc)
import Glibc
#endif
import DFUGATT
import Foundation
import Synchronization

/// Answers the kernel's pairing confirmation requests for one device while its link is open
/// (see `MgmtPairingAgent`): a management socket and a thread blocked in poll(2) on it and a
/// wake-up pipe. Started before connect(2), because the kernel pairs while connecting.
final class BlueZPairingAgent: Sendable {
    private let syscalls: any BlueZSyscalls
    private let descriptor: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let machine: Mutex<MgmtPairingAgent>
    private let stopped = Mutex(false)

    /// Opens the management socket; nil when it cannot be (no CAP_NET_ADMIN: bluetoothd's agent,
    /// if any, has to answer then).
    init?(adapter index: UInt16, peer: DeviceAddress, syscalls: any BlueZSyscalls) {
        let type = Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard case let .success(descriptor) = syscalls.socket(domain: BlueZConstants.addressFamily, type: type,
                                                              protocol: BlueZConstants.protocolHCI) else { return nil }
        let control = HCISocketAddress(index: MgmtCommand.noController, channel: BlueZConstants.hciChannelControl)
        guard case .success = syscalls.bind(descriptor, address: control.bytes),
              case let .success(wake) = syscalls.pipe() else {
            syscalls.close(descriptor)
            return nil
        }
        self.syscalls = syscalls
        self.descriptor = descriptor
        self.wakeRead = wake.read
        self.wakeWrite = wake.write
        self.machine = Mutex(MgmtPairingAgent(index: index, peer: peer))
        let thread = Thread { [self] in self.serve() }
        thread.name = "DFUBlueZ pairing agent \(peer)"
        thread.start()
    }

    /// The kernel's reason when pairing with the device failed.
    var failure: MgmtStatus? { machine.withLock { $0.failure } }

    func stop() {
        let first = stopped.withLock { stopped -> Bool in
            defer { stopped = true }
            return !stopped
        }
        if first { _ = syscalls.write(wakeWrite, bytes: [1]) }
    }

    private func serve() {
        serving: while true {
            let events: [Int16]
            switch syscalls.poll([descriptor, wakeRead], timeoutMilliseconds: -1) {
            case let .success(ready): events = ready
            case .failure(.interrupted): continue
            case .failure: break serving
            }
            if events.count > 1, events[1] != 0 { break }
            guard events.first ?? 0 != 0 else { continue }
            let packet: [UInt8]
            switch syscalls.read(descriptor, maximumLength: 1024) {
            case let .success(read): packet = read
            case .failure(.interrupted), .failure(.wouldBlock): continue
            case .failure: break serving
            }
            if let reply = machine.withLock({ $0.handle(MgmtEvent(bytes: packet)) }) {
                _ = syscalls.write(descriptor, bytes: reply.bytes)
            }
        }
        // Stopped, or the socket failed: wait for `stop` before closing the pipe it writes to.
        while !stopped.withLock({ $0 }) {
            if case .failure(.interrupted) = syscalls.poll([wakeRead], timeoutMilliseconds: -1) { continue }
            break
        }
        syscalls.close(descriptor)
        syscalls.close(wakeRead)
        syscalls.close(wakeWrite)
    }
}
