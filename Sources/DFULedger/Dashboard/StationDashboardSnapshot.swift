import Foundation

/// What the station dashboard shows at one moment (`GET /api/snapshot`, and each `snapshot`
/// event of `GET /events`), built from a ledger by `build(from:line:now:controlsEnabled:)`.
///
/// `jsonData()` is the contract's JSON (Documentation/DFUKit.docc/StationDashboard.md): member
/// names as there, times ISO 8601 in UTC with milliseconds, `null` for what is unknown. The
/// type is `Encodable` with the same names, for a server that embeds it in its own answer.
public struct StationDashboardSnapshot: Sendable, Hashable {
    /// The JSON's version (`version`): 1.
    public var version = 1
    /// When the snapshot was built (`generatedAt`).
    public var generatedAt: Date
    /// The ledger's location, without a password (`ledger`).
    public var ledger: String
    /// The line the snapshot is limited to (`?line=NAME`), or nil for the whole ledger.
    public var line: String?
    /// Whether the line controls (resume, release) may be used (`controls.enabled`): the server
    /// knows (it has a token or not).
    public var controlsEnabled: Bool
    /// Every line the ledger names (only `line` when limited), by name.
    public var lines: [Line]
    /// Every station process the ledger knows of (of `line` when limited), oldest start first.
    public var stations: [Station]
    /// The devices in flight on stations that are not gone, oldest start first.
    public var inFlight: [LiveDevice]
    /// Counts over the devices and attempts.
    public var totals: Totals
    /// Done and failed attempts of the last 12 hours that have attempts, oldest first.
    public var hourly: [Hour]
    /// Failed attempts by cause, most first.
    public var failuresByCause: [Cause]
    /// The newest 50 attempts, newest first.
    public var recentAttempts: [RecentAttempt]
    /// The newest 50 line controls (halts, resumes, quarantines, releases), newest first.
    public var events: [LineEvent]

    /// A provisioning line and whether it runs.
    public struct Line: Sendable, Hashable {
        /// The line's name.
        public var name: String
        /// The halt in force, or nil when the line runs (`state` is then `running`, else `halted`).
        public var halt: LineEvent?

        /// Line `name`, halted by `halt` when given.
        public init(name: String, halt: LineEvent?) {
            self.name = name
            self.halt = halt
        }

        /// `running` or `halted`.
        public var state: String { halt == nil ? "running" : "halted" }
    }

    /// One station process, as the dashboard sees it.
    public struct Station: Sendable, Hashable {
        /// What the dashboard says of a station.
        public enum State: String, Sendable, Hashable, CaseIterable {
            /// Flashing, or ready to (seen in the last 30 s).
            case running
            /// Waiting for its halted line to be resumed (seen in the last 30 s).
            case halted
            /// Its run finished.
            case ended
            /// Not seen for more than 30 s and not ended: killed, hung or cut off from the ledger.
            case gone
        }

        /// The station's row in the ledger.
        public var status: StationStatus
        /// The state shown: the station's own, or `gone`.
        public var state: State
        /// Its radios with the devices in flight on each.
        public var radios: [Radio]

        /// Station `status` shown as `state`, with `radios`.
        public init(status: StationStatus, state: State, radios: [Radio]) {
            self.status = status
            self.state = state
            self.radios = radios
        }
    }

    /// One radio of a station.
    public struct Radio: Sendable, Hashable {
        /// The radio's name (`hci0`, ...).
        public var name: String
        /// Devices in flight on it.
        public var inFlight: Int

        /// Radio `name` with `inFlight` devices in flight.
        public init(name: String, inFlight: Int) {
            self.name = name
            self.inFlight = inFlight
        }
    }

    /// Counts over the devices (address and package) and attempts in the snapshot's scope.
    public struct Totals: Sendable, Hashable {
        /// Devices with at least one attempt.
        public var devices: Int
        /// Devices with a succeeded or skipped attempt.
        public var done: Int
        /// Devices not done whose last attempt failed.
        public var failed: Int
        /// Devices in flight (`inFlight`'s count).
        public var inFlight: Int
        /// Devices quarantined now.
        public var quarantined: Int
        /// Attempts, retries and skips included.
        public var attempts: Int
        /// `done / devices`, nil without devices.
        public var yield: Double?
        /// Devices whose first attempt succeeded over `devices`, nil without devices.
        public var firstPassYield: Double?
        /// Devices done in the last 60 minutes of the wall clock (the snapshot's `now`).
        public var devicesPerHour: Double

        /// Totals of these values.
        public init(devices: Int, done: Int, failed: Int, inFlight: Int, quarantined: Int, attempts: Int,
                    yield: Double?, firstPassYield: Double?, devicesPerHour: Double) {
            self.devices = devices
            self.done = done
            self.failed = failed
            self.inFlight = inFlight
            self.quarantined = quarantined
            self.attempts = attempts
            self.yield = yield
            self.firstPassYield = firstPassYield
            self.devicesPerHour = devicesPerHour
        }
    }

    /// The attempts that ended in one hour.
    public struct Hour: Sendable, Hashable {
        /// The hour's start (UTC).
        public var hour: Date
        /// Attempts that succeeded or skipped.
        public var done: Int
        /// Attempts that failed.
        public var failed: Int

        /// The hour starting at `hour` with these counts.
        public init(hour: Date, done: Int, failed: Int) {
            self.hour = hour
            self.done = done
            self.failed = failed
        }
    }

    /// Failed attempts with one cause.
    public struct Cause: Sendable, Hashable {
        /// `Attempt.errorKind`, or `unknown` when none was recorded.
        public var cause: String
        /// Failed attempts with it.
        public var attempts: Int
        /// Devices (address and package) with at least one of them.
        public var devices: Int

        /// `attempts` failed attempts at `devices` devices with `cause`.
        public init(cause: String, attempts: Int, devices: Int) {
            self.cause = cause
            self.attempts = attempts
            self.devices = devices
        }
    }

    /// An attempt, and whether its audit record is in the ledger.
    public struct RecentAttempt: Sendable, Hashable {
        /// The attempt as recorded.
        public var attempt: Attempt
        /// Whether a signed audit record is stored with it.
        public var audited: Bool

        /// `attempt`, `audited` or not.
        public init(attempt: Attempt, audited: Bool) {
            self.attempt = attempt
            self.audited = audited
        }
    }
}
