import DFUEngine
import DFUProfile

/// One provisioning line: what to flash, to which devices, how (concurrency, retries,
/// timeouts, checks) and where to record it. Read from a line file (`LineFileLoader`) and/or
/// the flags of `dfukit batch run` (flags win).
public struct LineConfiguration: Sendable {
    /// The profile's name or path, as for `dfukit flash --profile`; required before a run.
    public var profile: String?
    /// The path of the firmware package to flash; required before a run.
    public var package: String?
    /// The station's radios: device strings as for `dfukit flash --device`, each naming one radio
    /// or several (`bluez:hci0,hci1`), e.g. `["sim:vendor-ctrlpt?fleet=64"]` (`device:` in a line
    /// file, a text or a list; `--device`, repeatable).
    public var transports: [String] = []
    /// The first of `transports` (for a station with one radio); setting it replaces them all.
    public var device: String? {
        get { transports.first }
        set { transports = newValue.map { [$0] } ?? [] }
    }
    /// Explicit device addresses; when empty, any advertising device that matches the profile.
    public var addresses: [String] = []
    /// With no explicit list: stop once this many devices are done.
    public var count: Int?
    /// Only devices heard at least this strong (dBm): the ones in this station's fixture.
    public var minimumRSSI: Int?
    /// Only devices whose advertised name fits this glob (`*`, `?`), on top of the profile's rules.
    public var namePattern: String?
    /// How many devices each radio flashes at once (with two radios, twice as many in all).
    public var concurrency = 1
    /// Attempts after the first, per device.
    public var retries = 2
    /// The delay before the second attempt at a device, doubled for each later one.
    public var backoff: Duration = .seconds(2)
    /// The cap on the delay between attempts.
    public var maximumBackoff: Duration = .seconds(60)
    /// Per attempt (on the transport's clock: simulated time on `sim:`): the session ends the
    /// attempt when it passes, saying what the device holds.
    public var deviceTimeout: Duration = .seconds(900)
    /// What to check after each successful update, in order; a failed check fails the attempt.
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
    /// `sqlite:PATH` or `postgresql://user:pass@host:port/db`; nil: `sqlite:dfukit-ledger.sqlite`.
    public var ledger: String?
    /// This station's name in the ledger; nil: the host name.
    public var station: String?
    /// The line's name in the ledger: every station of one line shares its halt state and its
    /// halt rule counts their attempts together. Nil: the line file's name without `.yaml`
    /// (`LineFileLoader` sets it), else the station's name.
    public var line: String?
    /// `halt-when`, `--halt-when`: halt the line when this rule holds over its last attempts; nil: never.
    public var haltWhen: HaltRule?
    /// `quarantine-after`, `--quarantine-after`: a device whose failed attempts with the package
    /// reach this many (across runs and stations, since its last release) is quarantined: never
    /// claimed again until `dfukit station release`. Nil: no quarantine; a device gets
    /// `1 + retries` attempts per run, and again on a rerun, as before.
    public var quarantineAfter: Int?
    /// What a station does on a halted line: wait for a resume (the default) or end the run.
    public var whenHalted: WhenHalted = .wait
    /// How often a waiting station reads the line's state from the ledger (1...60 s).
    public var haltPollInterval: Duration = .seconds(2)
    /// The station's Ed25519 private key (a PEM PKCS#8 file, `dfukit station keygen`): when set,
    /// each attempt's audit record is signed with it and stored in the ledger. Read and checked
    /// before any device is touched (`Preflight.batch`).
    public var auditKey: String?
    /// Who runs the line, recorded in each audit record (`dfukit batch run` defaults it to the
    /// login name).
    public var operatorName: String?
    /// Profile parameters for every device (`set:` in a line file, `--set NAME=VALUE`).
    public var parameters: [String: ParameterValue] = [:]
    /// Where each key's value was written in the line file, and each `set:` parameter's
    /// (`set.NAME`), for errors found once the profile and package are known.
    package var locations: [String: SourceLocation] = [:]

    /// The filters a scan's devices must pass, from `namePattern` and `minimumRSSI`.
    public var selection: DeviceSelection { DeviceSelection(namePattern: namePattern, minimumRSSI: minimumRSSI) }

    /// A line with every default and nothing to flash yet: set `profile`, `package` and `device`.
    public init() {}

    /// Why `lease` cannot be used (too short to renew in time, or absurdly long), or nil.
    public static func leaseProblem(_ lease: Duration) -> String? {
        guard lease >= .seconds(1) else { return "must be at least 1s (it is renewed every third of it)" }
        guard lease <= .seconds(86_400) else { return "must be at most 24h" }
        return nil
    }

    /// Why `quarantineAfter` cannot be used, or nil.
    public static func quarantineProblem(_ limit: Int) -> String? {
        (1...1000).contains(limit) ? nil : "must be in 1...1000 failed attempts, not \(limit)"
    }

    /// Why `line` cannot name a line, or nil.
    public static func lineNameProblem(_ name: String) -> String? {
        name.allSatisfy(\.isWhitespace) ? "must not be empty" : nil
    }

    /// The delay before attempt `attempt` (2, 3, ...): `backoff` doubled each time, capped.
    package func delay(beforeAttempt attempt: Int) -> Duration {
        guard attempt > 1 else { return .zero }
        var delay = backoff
        for _ in 2..<attempt where delay < maximumBackoff { delay *= 2 }
        return min(delay, maximumBackoff)
    }
}

/// After a successful flash: send a profile command and check its answer, e.g.
/// `{ exec: info, expect: [info.sha256 == image.sha256] }`.
public struct PostFlashCheck: Sendable {
    /// The profile command to send (`exec:`).
    public var command: String
    /// Conditions on its answer that must all hold, e.g. `info.sha256 == image.sha256`.
    public var expect: [Expression]
    /// Where `exec:` was written (nil for checks made in code).
    public var location: SourceLocation?
    /// The paths each of `expect` mentions, with their places (same order as `expect`).
    package var references: [[ExpressionPathReference]]

    /// A check that sends `command` and requires every expression of `expect` to hold.
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
    /// Where the installed firmware is read from.
    public enum Source: Sendable, Equatable {
        /// A profile command whose answer is visible under its name.
        case command(String)
        /// A characteristic of the profile, read; visible under its name as `value`, `text`, `size`.
        case characteristic(String)

        /// The command's or characteristic's name, under which the expressions see what was read.
        public var name: String {
            switch self {
            case .command(let name), .characteristic(let name): return name
            }
        }
    }

    /// The command to send or the characteristic to read.
    public var source: Source
    /// True when the device already runs the target firmware.
    public var installed: Expression
    /// What the ledger records as the version seen; nil: the characteristic's text, else the answer's
    /// fields `installed` compared.
    public var version: Expression?
    /// Where `exec:` or `read:` was written.
    public var location: SourceLocation?
    /// The paths of `installed`, then of `version`, with their places.
    package var references: [ExpressionPathReference]

    /// A rule that reads `source` and skips the device when `installed` holds.
    public init(source: Source, installed: Expression, version: Expression? = nil, location: SourceLocation? = nil,
                references: [ExpressionPathReference] = []) {
        self.source = source
        self.installed = installed
        self.version = version
        self.location = location
        self.references = references
    }
}
