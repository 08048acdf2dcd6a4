/// Counts over a ledger's attempts. A "device" is one device address with one package: a
/// device flashed with two packages counts twice.
public struct LedgerSummary: Sendable, Hashable {
    /// Devices (address and package) with at least one attempt.
    public var devices: Int
    /// Devices with a successful attempt.
    public var succeeded: Int
    /// Devices whose attempts all failed (the last one failed).
    public var failed: Int
    /// Devices whose attempts never succeeded and whose last attempt was cancelled.
    public var cancelled: Int
    /// Every attempt, retries (and skips) included.
    public var attempts: Int
    /// Devices skipped as already running the target firmware (`skip-installed`).
    public var skipped: Int

    /// A summary of these counts.
    public init(devices: Int, succeeded: Int, failed: Int, cancelled: Int, attempts: Int, skipped: Int = 0) {
        self.devices = devices
        self.succeeded = succeeded
        self.failed = failed
        self.cancelled = cancelled
        self.attempts = attempts
        self.skipped = skipped
    }

    /// The counts over `attempts` (in the order recorded).
    public init(attempts: [Attempt]) {
        var grouped: [DeviceKey: [Attempt]] = [:]
        for attempt in attempts {
            grouped[DeviceKey(device: attempt.device, packageSHA256: attempt.packageSHA256), default: []].append(attempt)
        }
        let outcome = grouped.values.map { DeviceOutcome.deciding($0).result }
        self.init(devices: outcome.count,
                  succeeded: outcome.filter { $0 == .succeeded }.count,
                  failed: outcome.filter { $0 == .failed }.count,
                  cancelled: outcome.filter { $0 == .cancelled }.count,
                  attempts: attempts.count,
                  skipped: outcome.filter { $0 == .skipped }.count)
    }
}

/// A device address with a package: the unit the ledger claims and marks done.
public struct DeviceKey: Sendable, Hashable, Comparable {
    /// The device's address.
    public var device: String
    /// The package's SHA-256, lowercase hex.
    public var packageSHA256: String

    /// The key of `device` with the package of that SHA-256.
    public init(device: String, packageSHA256: String) {
        self.device = device
        self.packageSHA256 = packageSHA256
    }

    public static func < (lhs: DeviceKey, rhs: DeviceKey) -> Bool {
        (lhs.device, lhs.packageSHA256) < (rhs.device, rhs.packageSHA256)
    }
}
