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
    /// Skip devices the ledger already has done with this package's sha256; false: flash them
    /// again (the ledger's claim then takes over the done mark).
    public var skipDone = true
    /// Read each device's firmware first and skip it when it already runs the target.
    public var skipInstalled: SkipInstalledRule?
    public var ledger: String?
    public var station: String?
    public var parameters: [String: ParameterValue] = [:]
    /// Where each key's value was written in the line file, and each `set:` parameter's
    /// (`set.NAME`), for errors found once the profile and package are known.
    public var locations: [String: SourceLocation] = [:]

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
    /// Where `exec:` was written (nil for checks made in code).
    public var location: SourceLocation?
    /// The paths each of `expect` mentions, with their places (same order as `expect`).
    public var references: [[ExpressionPathReference]]

    public init(command: String, expect: [Expression], location: SourceLocation? = nil,
                references: [[ExpressionPathReference]] = []) {
        self.command = command
        self.expect = expect
        self.location = location
        self.references = references
    }
}

/// `skip-installed:`: before claiming a device's update, ask what it runs, e.g.
/// `{ exec: info, installed: info.sha256 == image.sha256 }` or
/// `{ read: firmware_revision, installed: firmware_revision.text == image.version }`; a device
/// for which `installed` holds is recorded as `skipped`, with `version` (by default the values
/// `installed` read from the device) as the version seen.
public struct SkipInstalledRule: Sendable {
    public enum Source: Sendable, Equatable {
        /// A profile command whose answer is visible under its name.
        case command(String)
        /// A characteristic of the profile, read; visible under its name as `value`, `text`, `size`.
        case characteristic(String)

        public var name: String {
            switch self {
            case .command(let name), .characteristic(let name): return name
            }
        }
    }

    public var source: Source
    public var installed: Expression
    public var version: Expression?
    /// Where `exec:` or `read:` was written.
    public var location: SourceLocation?
    /// The paths of `installed`, then of `version`, with their places.
    public var references: [ExpressionPathReference]

    public init(source: Source, installed: Expression, version: Expression? = nil, location: SourceLocation? = nil,
                references: [ExpressionPathReference] = []) {
        self.source = source
        self.installed = installed
        self.version = version
        self.location = location
        self.references = references
    }
}
