import DFUBatch
import DFUEngine
import DFUGATT
import DFUSimulator

/// `sim:NAME?fleet=N&...` as the device source of a batch.
struct SimulatedFleetSource: BatchDeviceSource {
    let fleet: SimulatedFleet

    /// A `realtime=` fleet follows the wall clock, so the batch times it (and its line's
    /// timeouts and back-offs) on the wall clock too.
    var usesVirtualTime: Bool { fleet.configuration.pacing == nil }

    func scan() async throws(FlashError) -> [Advertisement] { fleet.advertisements }

    func transport(for address: DeviceAddress, attempt: Int, concurrency: Int) throws(FlashError) -> any GATTTransport {
        guard let world = fleet.world(for: address, attempt: attempt, concurrency: concurrency) else {
            throw FlashError(kind: .transport, message: "the simulated fleet has no device \(address)",
                             hint: "leave out the address list, or use addresses from C0:FF:EE:00:00:01 on")
        }
        return world
    }
}
