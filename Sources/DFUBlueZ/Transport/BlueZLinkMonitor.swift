#if canImport(Glibc)
import Glibc
#endif
import DFUGATT
import Foundation
import Synchronization

/// Watches an adapter's HCI events through a raw HCI socket (HCI_CHANNEL_RAW, filtered to
/// LE Meta and Disconnection Complete) on its own thread, so that what the controller granted a
/// connection the kernel made (interval, latency, supervision timeout, data length, PHY) can be
/// reported: the kernel's sockets do not expose the interval. Opened before connecting, so the
/// Connection Complete is seen. Needs CAP_NET_RAW: without it the kernel withholds LE events
/// from the socket, and `open` fails.
final class BlueZLinkMonitor: Sendable {
    private let descriptor: Int32
    private let syscalls: any BlueZSyscalls
    private let state = Mutex(State())

    private struct State {
        var log = HCILinkEventLog()
        var closed = false
        /// The connection to `peer` was seen (so its end, once seen, ends the watch).
        var connected = false
    }

    /// The device whose connection is watched.
    let peer: DeviceAddress

    /// SOL_HCI and HCI_FILTER (<bluetooth/hci.h>).
    static let solHCI: Int32 = 0
    static let hciFilter: Int32 = 2

    /// `struct hci_filter`: type_mask (bit HCI_EVENT_PKT = 4), event_mask[2] (Disconnection
    /// Complete 0x05, LE Meta 0x3E), opcode 0.
    static let filter: [UInt8] = littleEndian(UInt32(1 << 4)) + littleEndian(UInt32(1 << 0x05))
        + littleEndian(UInt32(1 << (0x3E - 32))) + [0, 0, 0, 0]

    static func open(adapter: BlueZAdapter, peer: DeviceAddress) -> Result<BlueZLinkMonitor, BlueZError> {
        let syscalls = adapter.syscalls
        let descriptor: Int32
        do {
            descriptor = try adapter.hciSocket()
        } catch {
            return .failure(error)
        }
        if case let .failure(error) = syscalls.bind(descriptor, address: HCISocketAddress(index: adapter.index).bytes) {
            syscalls.close(descriptor)
            return .failure(adapter.fail("bind (raw HCI socket)", error))
        }
        if case let .failure(error) = syscalls.setSocketOption(descriptor, level: solHCI, option: hciFilter, value: filter) {
            syscalls.close(descriptor)
            return .failure(adapter.fail("setsockopt HCI_FILTER", error))
        }
        return .success(BlueZLinkMonitor(descriptor: descriptor, syscalls: syscalls, name: adapter.name, peer: peer))
    }

    private init(descriptor: Int32, syscalls: any BlueZSyscalls, name: String, peer: DeviceAddress) {
        self.peer = peer
        self.descriptor = descriptor
        self.syscalls = syscalls
        let thread = Thread { [self] in self.readLoop() }
        thread.name = "DFUBlueZ HCI events \(name)"
        thread.start()
    }

    /// What the events said of the live connection to `peer`, if one was seen.
    var link: HCILinkEventLog.Link? {
        state.withLock { $0.log.links[peer] }
    }

    /// Stops the reader (within its 100 ms poll) and closes the socket; it also stops by itself
    /// once the watched connection ended.
    func close() {
        state.withLock { $0.closed = true }
    }

    private func readLoop() {
        defer { syscalls.close(descriptor) }
        while !state.withLock({ $0.closed }) {
            switch syscalls.poll([descriptor], timeoutMilliseconds: 100) {
            case let .success(events):
                guard let event = events.first, event != 0 else { continue }
                guard event & Int16(POLLIN) != 0 else { return }
            case .failure(.interrupted): continue
            case .failure: return
            }
            switch syscalls.read(descriptor, maximumLength: 300) {
            case let .success(packet) where !packet.isEmpty:
                state.withLock { state in
                    state.log.handle(packet)
                    let live = state.log.links[peer] != nil
                    if state.connected, !live { state.closed = true }
                    state.connected = state.connected || live
                }
            case .success: return
            case .failure(.interrupted), .failure(.wouldBlock): continue
            case .failure: return
            }
        }
    }
}
