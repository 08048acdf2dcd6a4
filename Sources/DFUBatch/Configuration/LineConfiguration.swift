import DFUProfile

/// One provisioning line: what to flash, to which devices, how (concurrency, retries,
/// timeouts, checks) and where to record it. Read from a line file (`LineFileLoader`) and/or
/// the flags of `dfukit batch run` (flags win).
public struct LineConfiguration: Sendable {
    public var profile: String?
    public var package: String?
    /// `TRANSPORT` as for `dfukit flash --device` (e.g. `sim:vendor-ctrlpt?fleet=64`).
    public var device: String?
    /// Explicit device addresses; when empty, any advertising device that matches the profile.
    public var addresses: [String] = []
    /// With no explicit list: stop once this many devices are done.
    public var count: Int?
    /// Only devices heard at least this strong (dBm): the ones in this station's fixture.
    public var minimumRSSI: Int?
    public var concurrency = 1
    /// Attempts after the first, per device.
    public var retries = 2
    public var backoff: Duration = .seconds(2)
    public var maximumBackoff: Duration = .seconds(60)
    /// Per attempt (on the transport's clock: simulated time on `sim:`).
    public var deviceTimeout: Duration = .seconds(900)
    public var checks: [PostFlashCheck] = []
    /// How long the ledger keeps this station's claim on a device without a heartbeat (wall
    /// clock, even on `sim:`). The runner renews it every third of the lease while it works on
    /// the device; a station that dies loses its devices to other stations after this long.
    public var lease: Duration = .seconds(600)
    /// Skip devices the ledger already has done with this package's sha256.
    public var skipDone = true
    public var ledger: String?
    public var station: String?
    public var parameters: [String: ParameterValue] = [:]

    public init() {}

    /// Why `lease` cannot be used (too short to renew in time, or absurdly long), or nil.
    public static func leaseProblem(_ lease: Duration) -> String? {
        guard lease >= .seconds(1) else { return "must be at least 1s (it is renewed every third of it)" }
        guard lease <= .seconds(86_400) else { return "must be at most 24h" }
        return nil
    }

    /// The delay before attempt `attempt` (2, 3, ...): `backoff` doubled each time, capped.
    public func delay(beforeAttempt attempt: Int) -> Duration {
        guard attempt > 1 else { return .zero }
        var delay = backoff
        for _ in 2..<attempt where delay < maximumBackoff { delay *= 2 }
        return min(delay, maximumBackoff)
    }
}

/// After a successful flash: send a profile command and check its answer, e.g.
/// `{ exec: info, expect: [info.sha256 == image.sha256] }`.
public struct PostFlashCheck: Sendable {
    public var command: String
    public var expect: [Expression]

    public init(command: String, expect: [Expression]) {
        self.command = command
        self.expect = expect
    }
}
