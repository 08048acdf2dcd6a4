import DFUBatch
import DFUEngine
import DFUGATT
import DFUSimulator

/// `sim:NAME?fleet=N&...` as the device source of a batch: each device on its own virtual
/// clock (unless `realtime=`).
public struct SimulatedFleetSource: BatchDeviceSource {
    /// The simulated devices.
    public let fleet: SimulatedFleet

    /// A source over `fleet`.
    public init(fleet: SimulatedFleet) {
        self.fleet = fleet
    }

    /// A `realtime=` fleet follows the wall clock, so the batch times it (and its line's
    /// timeouts and back-offs) on the wall clock too.
    public var usesVirtualTime: Bool { fleet.configuration.pacing == nil }

    /// The fleet's advertisements.
    public func scan() async throws(FlashError) -> [Advertisement] { fleet.advertisements }

    /// The simulated world that holds the device, for one attempt.
    public func transport(for address: DeviceAddress, attempt: Int, concurrency: Int) throws(FlashError) -> any GATTTransport {
        guard let world = fleet.world(for: address, attempt: attempt, concurrency: concurrency) else {
            throw FlashError(kind: .transport, message: "the simulated fleet has no device \(address)",
                             hint: "leave out the address list, or use addresses from C0:FF:EE:00:00:01 on")
        }
        return world
    }
}
