import Foundation

extension StationDashboardSnapshot {
    /// How many attempts and events the snapshot lists.
    static let recentLimit = 50
    /// How many hours `hourly` covers.
    static let hourLimit = 12

    /// Reads `ledger` (every attempt once, the line controls, stations and live rows, and the
    /// audit records of the newest attempts) and builds the snapshot as of `now`; only `line`'s
    /// attempts, events, stations and devices in flight when it is given.
    /// `controlsEnabled` is the server's to say (`controls.enabled`).
    public static func build(from ledger: any Ledger, line: String? = nil, now: Date = Date(),
                             controlsEnabled: Bool) async throws(LedgerError) -> StationDashboardSnapshot {
        let attempts = try await ledger.attempts(.all).filter { line == nil || $0.line == line }
        let events = try await ledger.lineEvents(line: line)
        let stations = try await ledger.stations()
        let live = try await ledger.liveDevices()
        let recent = attempts.suffix(recentLimit)
        var audited: Set<AuditKey> = []
        if let oldest = recent.map(\.startedAt).min() {
            // Only the audit records of the attempts shown; a second's slack for stored times.
            let entries = try await ledger.auditEntries(AttemptFilter(since: oldest.addingTimeInterval(-1)))
            audited = Set(entries.filter { $0.record != nil }.map(AuditKey.init(entry:)))
        }
        return StationDashboardSnapshot(ledger: ledger.location, line: line, now: now, controlsEnabled: controlsEnabled,
                                        attempts: attempts, audited: audited, events: events, stations: stations,
                                        live: live)
    }

    /// The snapshot of what a ledger holds (`attempts` already limited to `line`, in the order
    /// recorded; `audited` the attempts with an audit record), as of `now`.
    init(ledger: String, line: String?, now: Date, controlsEnabled: Bool, attempts: [Attempt], audited: Set<AuditKey>,
         events: [LineEvent], stations: [StationStatus], live: [LiveDevice]) {
        let visibility = LiveVisibility(stations: stations, now: now)
        let inFlight = live.filter { visibility.isVisible($0) && (line == nil || $0.line == line) }
        let shownStations = stations.filter { line == nil || $0.line == line }
        let lineNames = line.map { [$0] } ?? Set(attempts.compactMap(\.line) + events.compactMap(\.line)
                                                     + stations.compactMap(\.line) + live.compactMap(\.line)).sorted()
        self.init(generatedAt: now, ledger: ledger, line: line, controlsEnabled: controlsEnabled,
                  lines: lineNames.map { Line(name: $0, halt: LineEvent.currentHalt(of: $0, in: events)) },
                  stations: shownStations.map { Self.station($0, visibility: visibility, inFlight: inFlight) },
                  inFlight: inFlight,
                  totals: DashboardTotals(attempts: attempts, events: events, inFlight: inFlight.count, now: now).totals,
                  hourly: Self.hourly(attempts), failuresByCause: Self.causes(attempts),
                  recentAttempts: attempts.suffix(Self.recentLimit).reversed().map {
                      RecentAttempt(attempt: $0, audited: audited.contains(AuditKey(attempt: $0)))
                  },
                  events: Array(events.suffix(Self.recentLimit).reversed()))
    }

    /// A snapshot of these parts.
    init(generatedAt: Date, ledger: String, line: String?, controlsEnabled: Bool, lines: [Line], stations: [Station],
         inFlight: [LiveDevice], totals: Totals, hourly: [Hour], failuresByCause: [Cause], recentAttempts: [RecentAttempt],
         events: [LineEvent]) {
        self.generatedAt = generatedAt
        self.ledger = ledger
        self.line = line
        self.controlsEnabled = controlsEnabled
        self.lines = lines
        self.stations = stations
        self.inFlight = inFlight
        self.totals = totals
        self.hourly = hourly
        self.failuresByCause = failuresByCause
        self.recentAttempts = recentAttempts
        self.events = events
    }

    /// A station as shown: `gone` when not seen for too long, its radios (those it names, then
    /// any other its devices in flight are on) with their devices in flight.
    private static func station(_ status: StationStatus, visibility: LiveVisibility, inFlight: [LiveDevice]) -> Station {
        let mine = inFlight.filter { $0.session == status.session }
        var names = status.radios
        for radio in mine.compactMap(\.radio) where !names.contains(radio) { names.append(radio) }
        return Station(status: status, state: visibility.state(of: status),
                       radios: names.map { name in Radio(name: name, inFlight: mine.filter { $0.radio == name }.count) })
    }

    /// Done (succeeded or skipped) and failed attempts by the hour they ended: the last
    /// `hourLimit` hours that have attempts, oldest first.
    static func hourly(_ attempts: [Attempt]) -> [Hour] {
        var hours: [Int64: Hour] = [:]
        for attempt in attempts {
            let start = Int64((attempt.endedAt.timeIntervalSince1970 / 3600).rounded(.down)) * 3600
            var hour = hours[start] ?? Hour(hour: Date(timeIntervalSince1970: Double(start)), done: 0, failed: 0)
            if attempt.result.marksDone { hour.done += 1 }
            if attempt.result == .failed { hour.failed += 1 }
            hours[start] = hour
        }
        return hours.keys.sorted().suffix(hourLimit).compactMap { hours[$0] }
    }

    /// Failed attempts by error kind, with their devices; most attempts first, then by name.
    static func causes(_ attempts: [Attempt]) -> [Cause] {
        var counts: [String: (attempts: Int, devices: Set<DeviceKey>)] = [:]
        for attempt in attempts where attempt.result == .failed {
            let cause = attempt.errorKind ?? "unknown"
            counts[cause, default: (0, [])].attempts += 1
            counts[cause, default: (0, [])].devices.insert(DeviceKey(device: attempt.device,
                                                                      packageSHA256: attempt.packageSHA256))
        }
        return counts.map { Cause(cause: $0.key, attempts: $0.value.attempts, devices: $0.value.devices.count) }
            .sorted { ($1.attempts, $0.cause) < ($0.attempts, $1.cause) }
    }
}

/// What identifies an attempt among the audit entries (which carry no package).
struct AuditKey: Hashable {
    var device: String
    var attempt: Int
    var station: String
    var startedAt: Double

    init(attempt: Attempt) {
        device = attempt.device
        self.attempt = attempt.attemptNumber
        station = attempt.station
        startedAt = attempt.startedAt.timeIntervalSince1970
    }

    init(entry: AuditEntry) {
        device = entry.device
        attempt = entry.attempt
        station = entry.station
        startedAt = entry.startedAt.timeIntervalSince1970
    }
}
