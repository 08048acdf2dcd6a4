import DFUGATT

/// Which radio of a station works on which device, and what each radio does next: a pure state
/// (no I/O, no clock) that the runner feeds with what its radios heard and how their devices
/// ended.
///
/// - A device heard by several radios goes to the one that heard it strongest. Readings within
///   `rssiMargin` dB of the strongest count as equally strong (a reading wanders by a few dB
///   from one advertisement to the next); of those radios the least loaded (devices waiting and
///   running on it) takes it, then the first given.
/// - A device no radio heard (an address from the line's list) goes to the least loaded radio.
/// - A device is given to one radio once for the whole run: its retries stay there, and a later
///   scan by another radio does not take it again. So no device is ever on two radios.
/// - A later scan (with a count still to meet) takes no address next to (±1) one this run took
///   before that scan: that may be the same device, moved (a Nordic bootloader on address + 1, a legacy
///   application on address − 1). It is left for the next run.
/// - A failed radio starts nothing more; the devices waiting on it are handed back, never tried.
package struct RadioAssignment: Sendable {
    /// Readings this many dB apart or closer count as equally strong.
    package static let rssiMargin = 6

    /// A device as the radios heard it.
    package struct Sighting: Sendable, Equatable {
        /// The device's address.
        package var address: DeviceAddress
        /// The signal strength (dBm) each radio (by index) heard it at; empty when none did.
        package var strength: [Int: Int]

        /// `address`, heard by the radios in `strength`.
        package init(address: DeviceAddress, strength: [Int: Int] = [:]) {
            self.address = address
            self.strength = strength
        }
    }

    /// What an idle radio (nothing running on it) does next.
    package enum IdleAction: Sendable, Equatable {
        /// Scan for devices no radio has taken: the count is not met by the devices done, running
        /// and waiting.
        case scan
        /// Wait until something changes elsewhere (a device ends, a radio fails, the batch stops):
        /// its next device waits for the count, or another radio's failure may leave the count unmet.
        case wait
        /// Nothing more for this radio: its queue is empty and no more devices are wanted, it
        /// failed, or the batch stopped.
        case end
    }

    private struct Radio: Sendable {
        var queue: [DeviceAddress] = []
        var running = 0
        var failure: String?
        var load: Int { queue.count + running }
    }

    private var radios: [Radio]
    /// Every device given to a radio in this run, and to which.
    private var owners: [DeviceAddress: Int] = [:]
    private var running: Set<DeviceAddress> = []
    private var done = 0
    /// With a count: no device starts once this many are done or running.
    package let target: Int?
    /// Set by `stop()`: no device starts after it.
    package private(set) var stopped = false

    /// `radios` radios, none holding a device yet; `target`: the line's count (nil: every device given).
    package init(radios: Int, target: Int?) {
        self.radios = Array(repeating: Radio(), count: radios)
        self.target = target
    }

    /// The radio for a device heard at `strength` (dBm by radio index), given each radio's load and
    /// whether it is alive: the strongest, within `rssiMargin` the least loaded, then the first. A
    /// device no live radio heard goes to the least loaded live radio. Nil when none is alive.
    package static func choose(strength: [Int: Int], loads: [Int], alive: [Bool]) -> Int? {
        let live = loads.indices.filter { alive[$0] }
        let heard = live.filter { strength[$0] != nil }
        var candidates = live
        if let best = heard.map({ strength[$0]! }).max() {
            candidates = heard.filter { strength[$0]! >= best - rssiMargin }
        }
        return candidates.min { (loads[$0], $0) < (loads[$1], $1) }
    }

    /// Gives each device of `sightings` not given before, in order, to a radio (`choose`, each
    /// counting in the loads of the next). With `sparingNeighbours` (a later scan) an address next
    /// to one this run took is left alone. Returns the devices given, each with its radio.
    @discardableResult
    package mutating func assign(_ sightings: [Sighting], sparingNeighbours: Bool = false) -> [(DeviceAddress, Int)] {
        var given: [(DeviceAddress, Int)] = []
        // Devices taken before this scan: two neighbours heard at once are two devices.
        let taken = owners
        for sighting in sightings where owners[sighting.address] == nil {
            let address = sighting.address
            if sparingNeighbours, taken[address.adding(1)] != nil || taken[address.adding(-1)] != nil { continue }
            guard let radio = Self.choose(strength: sighting.strength, loads: radios.map(\.load),
                                          alive: radios.map { $0.failure == nil }) else { break }
            owners[address] = radio
            radios[radio].queue.append(address)
            given.append((address, radio))
        }
        return given
    }

    private var withinTarget: Bool { target.map { done + running.count < $0 } ?? true }

    /// Whether `radio` may start its next device now.
    package func canStart(on radio: Int) -> Bool {
        !stopped && radios[radio].failure == nil && !radios[radio].queue.isEmpty && withinTarget
    }

    /// The next device for `radio`, now counted as running on it; nil when it may start none.
    package mutating func next(for radio: Int) -> DeviceAddress? {
        guard canStart(on: radio) else { return nil }
        let device = radios[radio].queue.removeFirst()
        radios[radio].running += 1
        running.insert(device)
        return device
    }

    /// A running device ended; `counted`: it is done (flashed now, or done before).
    package mutating func finished(_ device: DeviceAddress, counted: Bool) {
        guard running.remove(device) != nil, let radio = owners[device] else { return }
        radios[radio].running -= 1
        if counted { done += 1 }
    }

    /// `radio` can no longer be used: it starts nothing more. Returns the devices that were waiting
    /// on it (never tried), or nil when it had failed before.
    package mutating func fail(_ radio: Int, reason: String) -> [DeviceAddress]? {
        guard radios[radio].failure == nil else { return nil }
        radios[radio].failure = reason
        let untried = radios[radio].queue
        radios[radio].queue = []
        return untried
    }

    /// Why `radio` failed, or nil while it can be used.
    package func failure(of radio: Int) -> String? { radios[radio].failure }

    /// The radio a device was given to in this run.
    package func radio(of device: DeviceAddress) -> Int? { owners[device] }

    /// Devices waiting to start on `radio`.
    package func waiting(on radio: Int) -> [DeviceAddress] { radios[radio].queue }

    /// No device starts from now on.
    package mutating func stop() { stopped = true }

    /// Whether the count is still to meet beyond the devices done, running and waiting on live radios.
    package var wantsMore: Bool {
        guard let target, !stopped else { return false }
        let waiting = radios.filter { $0.failure == nil }.reduce(0) { $0 + $1.queue.count }
        return done + running.count + waiting < target
    }

    /// What `radio`, with nothing running on it, does next; `mayScan`: the line lets it look for
    /// more devices (a count without an address list).
    package func idleAction(for radio: Int, mayScan: Bool) -> IdleAction {
        guard !stopped, radios[radio].failure == nil else { return .end }
        // Devices waiting for the count: one running elsewhere may yet fail.
        if !radios[radio].queue.isEmpty { return running.isEmpty ? .end : .wait }
        guard mayScan else { return .end }
        if wantsMore { return .scan }
        return running.isEmpty ? .end : .wait
    }
}
