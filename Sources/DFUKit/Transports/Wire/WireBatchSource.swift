import DFUBatch
import DFUBytes
import DFUEngine
import DFUGATT
import Synchronization

/// A batch line over wires: one device per port or address, each with its own transport. A
/// scan lists the ones there now; each attempt opens its device's wire again (a device that
/// re-enumerated is found by what names it for good).
final class WireBatchSource<Locator: Sendable>: BatchDeviceSource, Sendable {
    typealias Listing = @Sendable () -> [(address: DeviceAddress, name: String, locator: Locator)]
    typealias Opener = @Sendable (Locator) throws(DFUKitError) -> any GATTTransport

    private let list: Listing
    private let open: Opener
    /// The services the profile's link carries: each device "advertises" them, so that the
    /// line's device selection (the profile's match rule) takes every device on the line.
    private let services: [BluetoothUUID]
    private let seen = Mutex<[DeviceAddress: Locator]>([:])

    init(services: [BluetoothUUID], list: @escaping Listing, transport open: @escaping Opener) {
        self.services = services
        self.list = list
        self.open = open
    }

    /// Wires run on the wall clock.
    var usesVirtualTime: Bool { false }

    /// The devices there now.
    func scan() async throws(FlashError) -> [Advertisement] {
        let devices = list()
        seen.withLock { known in
            for device in devices { known[device.address] = device.locator }
        }
        return devices.map { Advertisement(address: $0.address, name: $0.name, serviceUUIDs: services, rssi: 0) }
    }

    /// The device's own transport.
    func transport(for address: DeviceAddress, attempt: Int, concurrency: Int) throws(FlashError) -> any GATTTransport {
        guard let locator = seen.withLock({ $0[address] }) else {
            throw FlashError(kind: .transport, message: "\(address) is not one of this line's ports (scan first)")
        }
        do {
            return try open(locator)
        } catch {
            throw FlashError(kind: .transport, message: error.message)
        }
    }
}
