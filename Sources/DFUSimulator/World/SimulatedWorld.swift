import DFUGATT

/// A simulated radio neighbourhood: some peripherals, one virtual clock, and the faults to
/// inject. It is the transport for `sim:` devices.
///
/// The clock only moves forward, through `advanceClock(to:)`, which fires the devices' own
/// timers in time order on the way: a device that reboots at T drops its link at T, whatever
/// the central is doing then (waiting for a notification, scanning, connecting). A device is
/// heard and connectable only while it advertises (`SimulatedPeripheral.isAdvertising(at:)`)
/// and has no open link from this world: scans, connects and `waitForAdvertisement` wait for
/// it, on the virtual clock, up to their timeout.
public final class SimulatedWorld: GATTTransport {
    /// How long a scanner needs to hear an advertising device: one advertising interval.
    package static let advertisementHeardAfter: Duration = .milliseconds(100)

    /// The transport's name, e.g. `sim:vendor-ctrlpt`.
    public let name: String
    /// The timing of every link in this world.
    public let settings: LinkSettings
    /// The link faults it injects.
    public let faults: FaultPlan
    /// The virtual clock shared by every link of this world.
    public private(set) var now: Duration = .zero
    /// The devices in the world.
    public private(set) var peripherals: [any SimulatedPeripheral]
    /// The signal a scan hears from a device (dBm), by address, in place of what the device
    /// itself advertises with: a fleet's devices, nearer and farther from the adapter.
    public var signalStrengths: [DeviceAddress: Int] = [:]

    // Fault bookkeeping, cumulative over the run.
    var valueBytesReceived = 0
    var notificationsSent = 0
    /// Writes without response sent by the central, for `drop-write` and `corrupt-write`.
    var writeCommandsSent = 0
    /// Attribute value bytes the devices received, and notifications they sent, over the run:
    /// what `disconnect-after:BYTES` and the notification faults count.
    public var valueBytesWritten: Int { valueBytesReceived }
    /// Notifications the devices sent over the run.
    public var notificationCount: Int { notificationsSent }
    var firedDisconnects: Set<Int> = []
    var firedReboots: Set<Int> = []
    private var openLinks: [ObjectIdentifier: WeakLink] = [:]
    /// `realtime=`: the wall clock this world's clock follows; nil: it runs free.
    private let pacer: WallClockPacer?
    /// `journal=`: where the devices note what they live through; nil: nowhere.
    let journal: SimulatedDeviceJournal?

    private struct WeakLink {
        weak var link: SimulatedLink?
    }

    /// A world of `peripherals` reached over links of `settings`, with `faults`; free-running unless
    /// paced; journalled when given a journal.
    public init(name: String, settings: LinkSettings = LinkSettings(), faults: FaultPlan = FaultPlan(),
                peripherals: [any SimulatedPeripheral], pacing: WallClockPacing? = nil,
                journal: SimulatedDeviceJournal? = nil) {
        self.name = name
        self.settings = settings
        self.faults = faults
        self.peripherals = peripherals
        self.pacer = pacing.map { WallClockPacer($0, virtualStart: .zero) }
        self.journal = journal
    }

    /// The speed this world's clock follows the wall clock at, if it does.
    public var pacing: WallClockPacing? { pacer?.pacing }

    /// On a `realtime=` world, waits until the wall clock has caught up with the virtual clock.
    /// Every call the central makes ends with this (see `WallClockPacing`).
    func keepUpWithWallClock() async {
        await pacer?.keepUp(with: now)
    }

    /// Takes over this world's devices from `previous` (a fleet's earlier attempt at them): a
    /// link `previous` still holds to one ends, and the devices' pending timers and flash work
    /// move to this clock with the time they had left, as if no time passed in between (the
    /// batch adds its attempts' simulated times up the same way).
    package func adoptDevices(from previous: SimulatedWorld) {
        let offset = now - previous.now
        for peripheral in peripherals {
            previous.openLink(to: peripheral)?.drop(reason: "the device was adopted by another simulated world")
            peripheral.shiftClock(by: offset)
        }
    }

    // MARK: - The clock

    /// When the earliest device timer is due, or nil.
    var nextTimer: Duration? {
        peripherals.compactMap(\.nextTimer).min()
    }

    /// Moves the clock to `time` (never back), firing every device timer due by then in time
    /// order; a device that resets drops its open link at that moment. Returns the devices that
    /// reset on the way.
    @discardableResult
    func advanceClock(to time: Duration) -> Set<ObjectIdentifier> {
        var reset: Set<ObjectIdentifier> = []
        while let (index, due) = earliestTimer(), due <= time {
            now = max(now, due)
            let peripheral = peripherals[index]
            for event in peripheral.fireTimers(at: now) {
                switch event {
                case let .reset(reason):
                    reset.insert(ObjectIdentifier(peripheral))
                    journal?.append(.reset, device: peripheral.advertisement.address)
                    openLink(to: peripheral)?.drop(reason: reason, peripheralKnows: true)
                }
            }
            precondition(peripheral.nextTimer.map { $0 > due } ?? true,
                         "a simulated device's timer at \(due) did not move on when fired")
        }
        now = max(now, time)
        return reset
    }

    private func earliestTimer() -> (Int, Duration)? {
        var earliest: (Int, Duration)?
        for (index, peripheral) in peripherals.enumerated() {
            guard let due = peripheral.nextTimer else { continue }
            if earliest.map({ due < $0.1 }) ?? true { earliest = (index, due) }
        }
        return earliest
    }

    /// Moves the clock to the next device timer if it is due by `deadline`; false when none is.
    private func advanceToNextTimer(notAfter deadline: Duration) -> Bool {
        guard let due = nextTimer, due <= deadline else { return false }
        advanceClock(to: due)
        return true
    }

    // MARK: - Advertising

    /// Whether `peripheral` can be heard and connected to now.
    func isAdvertising(_ peripheral: any SimulatedPeripheral) -> Bool {
        openLink(to: peripheral) == nil && peripheral.isAdvertising(at: now)
    }

    private func advertisingPeripheral(at address: DeviceAddress) -> (any SimulatedPeripheral)? {
        peripherals.first { $0.advertisement.address == address && isAdvertising($0) }
    }

    /// Every device that advertises at some moment within `timeout` is heard one advertising
    /// interval later. The scan ends once all were heard (or at the timeout, if one never was).
    public func scan(timeout: Duration) async throws(GATTError) -> [Advertisement] {
        let heard = scanNow(timeout: timeout)
        await keepUpWithWallClock()
        return heard
    }

    private func scanNow(timeout: Duration) -> [Advertisement] {
        let deadline = now + timeout
        var heard: [ObjectIdentifier: (advertisement: Advertisement, at: Duration)] = [:]
        func listen() {
            for peripheral in peripherals where heard[ObjectIdentifier(peripheral)] == nil && isAdvertising(peripheral) {
                heard[ObjectIdentifier(peripheral)] = (peripheral.advertisement, now)
            }
        }
        listen()
        while heard.count < peripherals.count, advanceToNextTimer(notAfter: deadline) { listen() }
        let lastHeard = heard.values.map(\.at).max() ?? now
        // A free-running world ends the scan once every device was heard; a `realtime=` one
        // listens for the whole time, as a radio does (a person may interrupt it meanwhile).
        let heardAll = heard.count == peripherals.count && pacer == nil
        advanceClock(to: heardAll ? min(deadline, lastHeard + Self.advertisementHeardAfter) : deadline)
        return peripherals.compactMap { heard[ObjectIdentifier($0)]?.advertisement }.map { advertisement in
            var advertisement = advertisement
            advertisement.rssi = signalStrengths[advertisement.address] ?? advertisement.rssi
            return advertisement
        }
    }

    /// Listens from now on: the device is heard one advertising interval after it advertises
    /// (if it still does then); nil once `timeout` passed without that.
    public func waitForAdvertisement(from address: DeviceAddress, timeout: Duration) async throws(GATTError) -> Advertisement? {
        let heard = waitForAdvertisementNow(from: address, timeout: timeout)
        await keepUpWithWallClock()
        return heard
    }

    private func waitForAdvertisementNow(from address: DeviceAddress, timeout: Duration) -> Advertisement? {
        let deadline = now + timeout
        while true {
            if let peripheral = advertisingPeripheral(at: address) {
                let heardAt = now + Self.advertisementHeardAfter
                guard heardAt <= deadline else { break }
                let reset = advanceClock(to: heardAt)
                if !reset.contains(ObjectIdentifier(peripheral)), peripheral.advertisement.address == address,
                   isAdvertising(peripheral) {
                    return peripheral.advertisement
                }
                continue
            }
            guard advanceToNextTimer(notAfter: deadline) else { break }
        }
        advanceClock(to: deadline)
        return nil
    }

    // MARK: - Connecting

    /// Lets virtual time pass with no link open; device timers (a reset delay ending, a boot)
    /// fire on the way.
    public func sleep(until deadline: Duration) async {
        advanceClock(to: deadline)
        await keepUpWithWallClock()
    }

    public func connect(to address: DeviceAddress, timeout: Duration) async throws(GATTError) -> any GATTLink {
        let result = Result { () throws(GATTError) -> SimulatedLink in try connectLink(to: address, timeout: timeout) }
        await keepUpWithWallClock()
        return try result.get()
    }

    /// The concrete link, for tests and benchmarks that read its statistics.
    ///
    /// A link the central still holds to that device is dropped first (the central gave up on
    /// it). Then the world waits until the device advertises at `address` (until `timeout`);
    /// the link is up `settings.connectDelay` later, unless the device reset meanwhile (the
    /// central then waits for it to advertise again).
    package func connectLink(to address: DeviceAddress, timeout: Duration) throws(GATTError) -> SimulatedLink {
        let deadline = now + timeout
        for peripheral in peripherals where peripheral.advertisement.address == address {
            openLink(to: peripheral)?.drop(reason: "a new connection to the same device replaced it")
        }
        while now <= deadline {
            if let peripheral = advertisingPeripheral(at: address) {
                let reset = advanceClock(to: now + settings.connectDelay)
                if reset.contains(ObjectIdentifier(peripheral)) || peripheral.advertisement.address != address { continue }
                let link = SimulatedLink(world: self, peripheral: peripheral, settings: settings)
                openLinks[ObjectIdentifier(peripheral)] = WeakLink(link: link)
                peripheral.connectionStarted(mtu: settings.mtu, at: now)
                journal?.append(.connect, device: link.address)
                return link
            }
            guard advanceToNextTimer(notAfter: deadline) else { break }
        }
        advanceClock(to: deadline)
        if peripherals.contains(where: { $0.advertisement.address == address }) {
            throw GATTError(.connectionFailed, address: address.description,
                            detail: "the device did not advertise within the timeout (\(timeout)): it may still be rebooting")
        }
        throw GATTError(.connectionFailed, address: address.description,
                        detail: "no simulated device advertises at this address (this world has: "
                            + peripherals.map { $0.advertisement.address.description }.joined(separator: ", ")
                            + "; leave out /ADDRESS to take the first matching device)")
    }

    /// The link this world holds open to `peripheral`, if any.
    func openLink(to peripheral: any SimulatedPeripheral) -> SimulatedLink? {
        guard let link = openLinks[ObjectIdentifier(peripheral)]?.link, link.isConnected else { return nil }
        return link
    }
}
