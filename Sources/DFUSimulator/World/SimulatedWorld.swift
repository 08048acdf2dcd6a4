import DFUGATT

/// A simulated radio neighbourhood: some advertising peripherals, one virtual clock, and the
/// faults to inject. It is the transport for `sim:` devices.
public final class SimulatedWorld: GATTTransport {
    public let name: String
    public let settings: LinkSettings
    public let faults: FaultPlan
    /// The virtual clock shared by every link of this world.
    public internal(set) var now: Duration = .zero
    public private(set) var peripherals: [any SimulatedPeripheral]

    // Fault bookkeeping, cumulative over the run.
    var valueBytesReceived = 0
    var notificationsSent = 0
    var firedDisconnects: Set<Int> = []
    private weak var openLink: SimulatedLink?

    public init(name: String, settings: LinkSettings = LinkSettings(), faults: FaultPlan = FaultPlan(),
                peripherals: [any SimulatedPeripheral]) {
        self.name = name
        self.settings = settings
        self.faults = faults
        self.peripherals = peripherals
    }

    public func scan(timeout: Duration) async throws(GATTError) -> [Advertisement] {
        // Advertisements are seen within one advertising interval.
        now += min(timeout, .milliseconds(100))
        return peripherals.map(\.advertisement)
    }

    public func waitForAdvertisement(from address: DeviceAddress, timeout: Duration) async throws(GATTError) -> Advertisement? {
        // Advertisements are seen within one advertising interval.
        now += min(timeout, .milliseconds(100))
        return peripherals.first { $0.advertisement.address == address }?.advertisement
    }

    public func sleep(until deadline: Duration) async {
        if now < deadline { now = deadline }
    }

    public func connect(to address: DeviceAddress, timeout: Duration) async throws(GATTError) -> any GATTLink {
        try connectLink(to: address, timeout: timeout)
    }

    /// The concrete link, for tests and benchmarks that read its statistics.
    public func connectLink(to address: DeviceAddress, timeout: Duration) throws(GATTError) -> SimulatedLink {
        guard let peripheral = peripherals.first(where: { $0.advertisement.address == address }) else {
            now += timeout
            throw GATTError(.connectionFailed, address: address.description,
                            detail: "no simulated device advertises at this address (this world has: "
                                + peripherals.map { $0.advertisement.address.description }.joined(separator: ", ")
                                + "; leave out /ADDRESS to take the first matching device)")
        }
        if let previous = openLink, previous.isConnected {
            previous.drop(reason: "a new connection to the same device replaced it")
        }
        now += settings.connectDelay
        let link = SimulatedLink(world: self, peripheral: peripheral, settings: settings)
        openLink = link
        peripheral.connectionStarted(mtu: settings.mtu, at: now)
        return link
    }
}
