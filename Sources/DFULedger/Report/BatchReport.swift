import Foundation

/// What a ledger says about a line: one row per device (address and package) with its outcome,
/// counts, and failed attempts grouped by cause. Built from attempts alone, so it is the same for
/// SQLite and PostgreSQL; rendered by `renderText`, `renderJSON`, `renderJUnit` and `renderHTML`.
public struct BatchReport: Sendable, Equatable {
    /// One device with one package.
    public struct Row: Sendable, Equatable {
        /// The device's address.
        public var device: String
        /// The last serial number read from the device, if any.
        public var serial: String?
        /// The package's SHA-256, lowercase hex.
        public var packageSHA256: String
        /// The profile it was flashed with.
        public var profile: String
        /// The station of the deciding attempt.
        public var station: String
        /// How the device stands (`DeviceOutcome`): `succeeded` or `skipped` when an attempt left it
        /// done (and no later claim tried it again), otherwise how the last attempt ended.
        public var result: Attempt.Result
        /// Attempts at it, retries included.
        public var attempts: Int
        /// The deciding attempt's seconds (the success, the skip, or the last attempt); the
        /// device's time is `totalSeconds`.
        public var seconds: Double
        /// Image bytes the device acknowledged in the deciding attempt.
        public var bytes: Int
        /// `bytes` over `seconds`.
        public var bytesPerSecond: Double
        /// Seconds over every attempt, retries included.
        package var totalSeconds: Double
        /// When its first attempt started.
        public var startedAt: Date
        /// When its last attempt ended.
        public var endedAt: Date
        /// The last failed attempt's error kind and message (also kept for devices that
        /// succeeded after a retry).
        package var lastErrorKind: String?
        package var lastErrorMessage: String?
        /// The firmware version the device was found to run (`skip-installed`), the last one read.
        public var deviceVersion: String?
    }

    /// One attempt on the stations' timeline.
    public struct Span: Sendable, Equatable {
        /// The station that made it.
        public var station: String
        /// The device's address.
        public var device: String
        /// 1 for the device's first attempt, 2 for the next...
        public var attemptNumber: Int
        /// How it ended.
        public var result: Attempt.Result
        /// When it started.
        public var startedAt: Date
        /// When it ended.
        public var endedAt: Date
        /// How long it took, on the attempts' clock.
        public var seconds: Double
    }

    /// Which clock the attempts were timed on.
    public enum Clock: String, Sendable, Equatable {
        /// Every attempt on the wall clock (or not recorded: ledgers before schema 2).
        case wall
        /// Every attempt on a simulated clock (`sim:`): times, spans and rates are simulated.
        case simulated
        /// Some of each: spans and rates mix both.
        case mixed
    }

    /// Failed attempts with one error kind.
    package struct Cause: Sendable, Equatable {
        /// `Attempt.errorKind`, or `unknown` when none was recorded.
        public var kind: String
        public var attempts: Int
        /// Distinct devices with at least one failed attempt of this kind.
        public var devices: Int
    }

    /// The ledger's location (without password).
    public var ledger: String
    package var generatedAt: Date
    /// Ordered by each device's first attempt, then address.
    public var rows: [Row]
    /// Most frequent first, then by kind.
    package var byCause: [Cause]
    /// Every attempt in the order recorded, for the stations' timeline.
    public var spans: [Span]
    /// Which clock the attempts were timed on.
    public var clock: Clock
    /// Every attempt, retries included.
    public var attempts: Int
    /// The stations that made attempts, sorted.
    public var stations: [String]
    /// The packages' SHA-256s, sorted.
    public var packages: [String]
    /// The profiles used, sorted.
    public var profiles: [String]
    /// The line controls the ledger holds (halts, resumes, quarantines, releases), in order; empty
    /// in ledgers older than schema 4.
    public var lineEvents: [LineEvent] = []

    /// Devices (address and package) in the report.
    public var devices: Int { rows.count }
    /// Devices updated.
    public var succeeded: Int { rows.filter { $0.result == .succeeded }.count }
    /// Devices whose last attempt failed.
    public var failed: Int { rows.filter { $0.result == .failed }.count }
    /// Devices whose last attempt was cancelled.
    public var cancelled: Int { rows.filter { $0.result == .cancelled }.count }
    /// Devices skipped as already running the target firmware.
    public var skipped: Int { rows.filter { $0.result == .skipped }.count }
    package var failedAttempts: Int { byCause.reduce(0) { $0 + $1.attempts } }
    /// The first attempt's start, nil for an empty ledger.
    public var startedAt: Date? { rows.map(\.startedAt).min() }
    /// The last attempt's end, nil for an empty ledger.
    public var endedAt: Date? { rows.map(\.endedAt).max() }
    /// From the first start to the last end, on the attempts' clock (simulated for `sim:` runs).
    package var wallSeconds: Double {
        guard let startedAt, let endedAt else { return 0 }
        return max(0, endedAt.timeIntervalSince(startedAt))
    }
    /// The time during which at least one attempt ran: the span without the pauses between runs.
    package var busySeconds: Double {
        var total = 0.0
        var current: (start: Date, end: Date)?
        for span in spans.sorted(by: { $0.startedAt < $1.startedAt }) {
            if let open = current, span.startedAt <= open.end {
                current = (open.start, max(open.end, span.endedAt))
            } else {
                if let open = current { total += open.end.timeIntervalSince(open.start) }
                current = (span.startedAt, span.endedAt)
            }
        }
        if let open = current { total += open.end.timeIntervalSince(open.start) }
        return max(0, total)
    }
    /// Every attempt's own seconds added up (retries and skips included).
    package var attemptSeconds: Double { spans.reduce(0) { $0 + $1.seconds } }
    /// Devices that succeeded per hour during which the line ran (`busySeconds`), on the
    /// attempts' clock.
    package var devicesPerHour: Double { busySeconds > 0 ? Double(succeeded) * 3600 / busySeconds : 0 }
    /// " (simulated)" when the attempts ran on a simulated clock, " (clocks mixed)" when some did.
    package var clockNote: String {
        switch clock {
        case .wall: return ""
        case .simulated: return " simulated"
        case .mixed: return " (simulated and wall clocks mixed)"
        }
    }

    /// The report over `attempts` (in the order recorded, as `Ledger.attempts` returns them).
    public init(attempts: [Attempt], ledger: String, generatedAt: Date = Date()) {
        self.ledger = ledger
        self.generatedAt = generatedAt
        self.attempts = attempts.count
        var grouped: [DeviceKey: [Attempt]] = [:]
        for attempt in attempts {
            grouped[DeviceKey(device: attempt.device, packageSHA256: attempt.packageSHA256), default: []].append(attempt)
        }
        rows = grouped.values.map(Self.row).sorted { ($0.startedAt, $0.device, $0.packageSHA256) < ($1.startedAt, $1.device, $1.packageSHA256) }
        var causeAttempts: [String: Int] = [:]
        var causeDevices: [String: Set<DeviceKey>] = [:]
        for attempt in attempts where attempt.result == .failed {
            let kind = attempt.errorKind.flatMap { $0.isEmpty ? nil : $0 } ?? "unknown"
            causeAttempts[kind, default: 0] += 1
            causeDevices[kind, default: []].insert(DeviceKey(device: attempt.device, packageSHA256: attempt.packageSHA256))
        }
        byCause = causeAttempts.map { Cause(kind: $0.key, attempts: $0.value, devices: causeDevices[$0.key]?.count ?? 0) }
            .sorted { ($1.attempts, $0.kind) < ($0.attempts, $1.kind) }
        spans = attempts.map {
            Span(station: $0.station, device: $0.device, attemptNumber: $0.attemptNumber, result: $0.result,
                 startedAt: $0.startedAt, endedAt: max($0.endedAt, $0.startedAt), seconds: $0.seconds)
        }
        let simulated = attempts.filter { $0.clock == .simulated }.count
        clock = simulated == 0 ? .wall : (simulated == attempts.count ? .simulated : .mixed)
        stations = Set(attempts.map(\.station)).sorted()
        packages = Set(attempts.map(\.packageSHA256)).sorted()
        profiles = Set(attempts.map(\.profile)).sorted()
    }

    /// Reads the attempts that match `filter` from `ledger` and builds the report.
    public static func load(from ledger: any Ledger, filter: AttemptFilter = .all,
                            generatedAt: Date = Date()) async throws(LedgerError) -> BatchReport {
        var report = BatchReport(attempts: try await ledger.attempts(filter), ledger: ledger.location, generatedAt: generatedAt)
        report.lineEvents = try await ledger.lineEvents(line: nil).filter { event in
            // A quarantine of another package or a station's halt outside the filter is not this report's.
            (filter.packageSHA256.map { package in event.packageSHA256.map { $0 == package } ?? true } ?? true)
                && (filter.since.map { event.at >= $0 } ?? true)
        }
        return report
    }

    private static func row(_ attempts: [Attempt]) -> Row {
        let deciding = DeviceOutcome.deciding(attempts)
        let lastFailure = attempts.last { $0.result == .failed }
        return Row(device: deciding.device, serial: attempts.last { $0.serial != nil }?.serial,
                   packageSHA256: deciding.packageSHA256, profile: deciding.profile, station: deciding.station,
                   result: deciding.result, attempts: attempts.count, seconds: deciding.seconds, bytes: deciding.bytes,
                   bytesPerSecond: deciding.bytesPerSecond, totalSeconds: attempts.reduce(0) { $0 + $1.seconds },
                   startedAt: attempts.map(\.startedAt).min() ?? deciding.startedAt,
                   endedAt: attempts.map(\.endedAt).max() ?? deciding.endedAt,
                   lastErrorKind: lastFailure.map { $0.errorKind ?? "unknown" }, lastErrorMessage: lastFailure?.errorMessage,
                   deviceVersion: attempts.last { $0.deviceVersion != nil }?.deviceVersion)
    }

    /// One line control in words, as the text, HTML and JUnit reports list it, e.g. "line east
    /// halted: failed >= 3 of last 10 held (seen by station s1): 3 of the line's last 3 finished
    /// attempts failed" or "C0:FF:EE:00:00:01 released by ann: reseated".
    package static func describe(_ event: LineEvent) -> String {
        var text: String
        switch event.kind {
        case .halted:
            text = "line \(event.line ?? "?") halted: \(event.rule ?? "its rule") held"
        case .resumed:
            text = "line \(event.line ?? "?") resumed"
        case .quarantined:
            text = "\(event.device ?? "?") quarantined" + (event.line.map { " on line \($0)" } ?? "")
        case .released:
            text = "\(event.device ?? "?") released from quarantine"
        }
        if let station = event.station { text += " (station \(station))" }
        if let who = event.operatorName { text += " by \(who)" }
        if let reason = event.reason { text += ": \(reason)" }
        return text
    }

    /// The closing sentence every rendering shares: whether every device succeeded.
    package var verdict: String {
        if devices == 0 { return "the ledger records no attempts yet" }
        if failed == 0 && cancelled == 0 {
            guard skipped > 0 else { return "every device succeeded (\(succeeded) of \(devices))" }
            return "every device is done (\(succeeded) succeeded, \(skipped) skipped as already running the target)"
        }
        var parts: [String] = []
        if failed > 0 { parts.append("\(failed) of \(devices) devices failed") }
        if cancelled > 0 { parts.append("\(cancelled) cancelled") }
        return parts.joined(separator: ", ") + "; \(succeeded) succeeded" + (skipped > 0 ? ", \(skipped) skipped" : "")
    }
}
