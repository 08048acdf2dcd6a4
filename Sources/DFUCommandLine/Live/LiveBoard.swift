import DFUKit
import DFULedger
import Foundation

/// What `batch run` knows of its devices in flight and of itself, for the station dashboard's
/// live rows, and what is due to be written: a pure state machine (no I/O, no clock: every
/// call is given the time), fed the runner's events by `LiveFeed` and asked what to write.
///
/// A device's row is due at once when its attempt starts, changes phase or learns its link,
/// and at most once per `interval` for progress; a finished (or skipped) device's row is due
/// to be cleared. The station's own row is due when its state changes and every
/// `stationInterval`.
struct LiveBoard {
    /// One device in flight.
    struct Device: Equatable {
        /// The attempt at the device in this run (1-based; the ledger's number counts earlier runs).
        var attempt: Int
        var phase: String
        /// The radio the attempt runs on, when the station has named radios.
        var radio: String? = nil
        var done = 0
        var total = 0
        var bytesPerSecond: Double = 0
        var link = Link()
        var startedAt: Date
        /// The first progress of the attempt, which the rate counts from.
        var firstProgress: Mark?
        /// When the row was last handed out to be written; nil: never.
        var publishedAt: Date?
        /// Changed since then.
        var changed = true
        /// To be written at once (start, phase, link), not after the interval.
        var urgent = true
    }

    /// Bytes on the device at a moment.
    struct Mark: Equatable {
        var at: Date
        var done: Int
    }

    /// What is known of a device's connection (kept from before its attempt starts: a probe
    /// connects first; forgotten when the device finishes).
    struct Link: Equatable {
        var mtu: Int?
        var phy: String?
        var rssi: Int?
    }

    /// Something to write to the ledger.
    enum Write: Equatable {
        /// The device's live row, as it stands.
        case publish(device: String, Device)
        /// Delete the device's live row.
        case clear(device: String)
        /// The station's row, in this state.
        case announce(StationStatus.State)
    }

    /// How often a device's progress is written at most, seconds.
    var interval: Double = 1
    /// How often the station's row is written while nothing changes, seconds.
    var stationInterval: Double = 5

    private(set) var devices: [String: Device] = [:]
    private var links: [String: Link] = [:]
    private var toClear: [String] = []
    private(set) var stationState: StationStatus.State = .running
    private var stationChanged = true
    private var announcedAt: Date?

    /// Takes in one runner event; true when something is due at once (`writes(at:)` should run
    /// now rather than at the next tick).
    mutating func apply(_ event: BatchEvent, at now: Date) -> Bool {
        switch event {
        case let .deviceStarted(address, attempt, _, radio):
            let key = address.description
            toClear.removeAll { $0 == key }
            devices[key] = Device(attempt: attempt, phase: "connecting", radio: radio, link: links[key] ?? Link(),
                                  startedAt: now)
            return true
        case let .devicePhase(address, phase):
            return update(address.description) { device in
                guard device.phase != phase else { return false }
                device.phase = phase
                return true
            }
        case let .deviceLink(address, mtu, phy, rssi):
            let key = address.description
            var link = links[key] ?? Link()
            link.mtu = mtu ?? link.mtu
            link.phy = phy ?? link.phy
            link.rssi = rssi ?? link.rssi
            links[key] = link
            return update(key) { device in
                guard device.link != link else { return false }
                device.link = link
                return true
            }
        case let .progress(address, done, total):
            _ = update(address.description) { device in
                if device.firstProgress == nil { device.firstProgress = Mark(at: now, done: done) }
                if let first = device.firstProgress, now > first.at {
                    device.bytesPerSecond = max(0, Double(done - first.done) / now.timeIntervalSince(first.at))
                }
                device.done = done
                device.total = total
                return false
            }
            return false
        case let .deviceFinished(address, _, _, _, _), let .deviceSkipped(address, _), let .claimLost(address, _):
            let key = address.description
            links[key] = nil
            guard devices.removeValue(forKey: key) != nil else { return false }
            toClear.append(key)
            return true
        case let .lineHalted(_, _, waiting):
            return setStation(waiting ? .halted : stationState)
        case .lineResumed:
            return setStation(.running)
        case .retryScheduled, .stopping, .deviceQuarantined, .ledgerWriteFailed, .radioFailed:
            return false
        }
    }

    /// The run is over: every row still there is to be cleared, and the station has ended.
    mutating func end() {
        toClear.append(contentsOf: devices.keys.sorted())
        devices = [:]
        _ = setStation(.ended)
    }

    /// What is due to be written at `now` (clears first, then rows, then the station), marking it
    /// handed out.
    mutating func writes(at now: Date) -> [Write] {
        var writes = toClear.map { Write.clear(device: $0) }
        toClear = []
        for key in devices.keys.sorted() {
            guard var device = devices[key], device.changed || device.urgent else { continue }
            let intervalPassed = device.publishedAt.map { now.timeIntervalSince($0) >= interval } ?? true
            guard device.urgent || intervalPassed else { continue }
            device.publishedAt = now
            device.changed = false
            device.urgent = false
            devices[key] = device
            writes.append(.publish(device: key, device))
        }
        if stationChanged || announcedAt.map({ now.timeIntervalSince($0) >= stationInterval }) ?? true {
            stationChanged = false
            announcedAt = now
            writes.append(.announce(stationState))
        }
        return writes
    }

    /// Changes the device's row if it is in flight: `body` says whether the change is urgent.
    private mutating func update(_ key: String, _ body: (inout Device) -> Bool) -> Bool {
        guard var device = devices[key] else { return false }
        let urgent = body(&device)
        device.changed = true
        device.urgent = device.urgent || urgent
        devices[key] = device
        return urgent
    }

    private mutating func setStation(_ state: StationStatus.State) -> Bool {
        guard state != stationState else { return false }
        stationState = state
        stationChanged = true
        return true
    }
}
