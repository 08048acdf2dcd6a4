import DFUGATT
import Synchronization

/// What a radio's transports said of the radio itself: the first error that was about the
/// transport as a whole (`GATTError.Kind.transportUnavailable`: the adapter is gone or down, the
/// controller's connection closed), not about one device.
final class RadioHealth: Sendable {
    private let noted = Mutex<String?>(nil)

    /// Why the radio cannot be used, once one of its transports said so.
    var failure: String? { noted.withLock { $0 } }

    /// Keeps the first such error.
    func note(_ error: GATTError) {
        guard error.kind == .transportUnavailable else { return }
        noted.withLock { if $0 == nil { $0 = error.detail } }
    }
}

/// A radio's transport for one attempt, telling its `RadioHealth` when a scan or a connection
/// fails because the transport itself cannot be used. It sits under the lease gate, whose own
/// refusals (this station lost its claim) say nothing about the radio.
final class RadioWatchTransport: GATTTransport {
    private let base: any GATTTransport
    private let health: RadioHealth

    init(_ base: any GATTTransport, health: RadioHealth) {
        self.base = base
        self.health = health
    }

    var name: String { base.name }
    var now: Duration { base.now }
    var soleDevice: DeviceAddress? { base.soleDevice }

    func scan(timeout: Duration) async throws(GATTError) -> [Advertisement] {
        do {
            return try await base.scan(timeout: timeout)
        } catch {
            health.note(error)
            throw error
        }
    }

    func connect(to address: DeviceAddress, timeout: Duration) async throws(GATTError) -> any GATTLink {
        do {
            return try await base.connect(to: address, timeout: timeout)
        } catch {
            health.note(error)
            throw error
        }
    }

    func waitForAdvertisement(from address: DeviceAddress, timeout: Duration) async throws(GATTError) -> Advertisement? {
        do {
            return try await base.waitForAdvertisement(from: address, timeout: timeout)
        } catch {
            health.note(error)
            throw error
        }
    }

    func sleep(until deadline: Duration) async {
        await base.sleep(until: deadline)
    }
}
