import Foundation

/// What a ledger says about a line: one row per device (address and package) with its outcome,
/// counts, and failed attempts grouped by cause. Built from attempts alone, so it is the same for
/// SQLite and PostgreSQL; rendered by `renderText`, `renderJSON`, `renderJUnit` and `renderHTML`.
public struct BatchReport: Sendable, Equatable {
    /// One device with one package.
    public struct Row: Sendable, Equatable {
        public var device: String
        /// The last serial number read from the device, if any.
        public var serial: String?
        public var packageSHA256: String
        public var profile: String
        /// The station of the deciding attempt.
        public var station: String
        /// `succeeded` when any attempt succeeded, otherwise how the last attempt ended.
        public var result: Attempt.Result
        public var attempts: Int
        /// The deciding attempt: the successful one, otherwise the last.
        public var seconds: Double
        public var bytes: Int
        public var bytesPerSecond: Double
        /// Seconds over every attempt, retries included.
        public var totalSeconds: Double
        public var startedAt: Date
        public var endedAt: Date
        /// The last failed attempt's error kind and message (also kept for devices that
        /// succeeded after a retry).
        public var lastErrorKind: String?
        public var lastErrorMessage: String?
    }

    /// Failed attempts with one error kind.
    public struct Cause: Sendable, Equatable {
        /// `Attempt.errorKind`, or `unknown` when none was recorded.
        public var kind: String
        public var attempts: Int
        /// Distinct devices with at least one failed attempt of this kind.
        public var devices: Int
    }

    /// The ledger's location (without password).
    public var ledger: String
    public var generatedAt: Date
    /// Ordered by each device's first attempt, then address.
    public var rows: [Row]
    /// Most frequent first, then by kind.
    public var byCause: [Cause]
    /// Every attempt, retries included.
    public var attempts: Int
    public var stations: [String]
    public var packages: [String]
    public var profiles: [String]

    public var devices: Int { rows.count }
    public var succeeded: Int { rows.filter { $0.result == .succeeded }.count }
    public var failed: Int { rows.filter { $0.result == .failed }.count }
    public var cancelled: Int { rows.filter { $0.result == .cancelled }.count }
    public var failedAttempts: Int { byCause.reduce(0) { $0 + $1.attempts } }
    /// The first attempt's start, nil for an empty ledger.
    public var startedAt: Date? { rows.map(\.startedAt).min() }
    public var endedAt: Date? { rows.map(\.endedAt).max() }
    /// From the first start to the last end.
    public var wallSeconds: Double {
        guard let startedAt, let endedAt else { return 0 }
        return max(0, endedAt.timeIntervalSince(startedAt))
    }
    /// Devices that succeeded per hour of wall time.
    public var devicesPerHour: Double { wallSeconds > 0 ? Double(succeeded) * 3600 / wallSeconds : 0 }

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
        stations = Set(attempts.map(\.station)).sorted()
        packages = Set(attempts.map(\.packageSHA256)).sorted()
        profiles = Set(attempts.map(\.profile)).sorted()
    }

    /// Reads the attempts that match `filter` from `ledger` and builds the report.
    public static func load(from ledger: any Ledger, filter: AttemptFilter = .all,
                            generatedAt: Date = Date()) async throws(LedgerError) -> BatchReport {
        BatchReport(attempts: try await ledger.attempts(filter), ledger: ledger.location, generatedAt: generatedAt)
    }

    private static func row(_ attempts: [Attempt]) -> Row {
        let deciding = attempts.first { $0.result == .succeeded } ?? attempts[attempts.count - 1]
        let lastFailure = attempts.last { $0.result == .failed }
        return Row(device: deciding.device, serial: attempts.last { $0.serial != nil }?.serial,
                   packageSHA256: deciding.packageSHA256, profile: deciding.profile, station: deciding.station,
                   result: deciding.result, attempts: attempts.count, seconds: deciding.seconds, bytes: deciding.bytes,
                   bytesPerSecond: deciding.bytesPerSecond, totalSeconds: attempts.reduce(0) { $0 + $1.seconds },
                   startedAt: attempts.map(\.startedAt).min() ?? deciding.startedAt,
                   endedAt: attempts.map(\.endedAt).max() ?? deciding.endedAt,
                   lastErrorKind: lastFailure.map { $0.errorKind ?? "unknown" }, lastErrorMessage: lastFailure?.errorMessage)
    }

    /// The closing sentence every rendering shares: whether every device succeeded.
    public var verdict: String {
        if devices == 0 { return "the ledger records no attempts yet" }
        if failed == 0 && cancelled == 0 { return "every device succeeded (\(succeeded) of \(devices))" }
        var parts: [String] = []
        if failed > 0 { parts.append("\(failed) of \(devices) devices failed") }
        if cancelled > 0 { parts.append("\(cancelled) cancelled") }
        return parts.joined(separator: ", ") + "; \(succeeded) succeeded"
    }
}
