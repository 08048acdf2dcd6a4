/// How a station learns its line is halted, and what it records when the line's rule holds or a
/// device reaches its quarantine limit. `BatchLedger` extends this; the defaults are a line with
/// no controls (never halted, nothing quarantined).
public protocol LineControlLedger: Sendable {
    /// The halt in force on this station's line, or nil when it runs. Read before each new device.
    func lineHalt() async throws -> LineHalt?
    /// The line's last `last` finished attempts (every station), oldest first, since its last resume.
    func lineOutcomes(last: Int) async throws -> [LineAttemptOutcome]
    /// Records that `rule` held over `attempts`; false when the line was halted already (by this
    /// station or another), in which case nothing is recorded.
    func halt(rule: HaltRule, attempts: [LineAttemptOutcome]) async throws -> Bool
    /// How many failed attempts the ledger has for `device` with this package since its last release.
    func failedAttempts(device: String) async throws -> Int
    /// Quarantines `device` after `failures` failed attempts; false when it was already.
    func quarantine(device: String, failures: Int) async throws -> Bool
    /// Whether `device` is quarantined: it is not claimed until an operator releases it.
    func isQuarantined(device: String) async throws -> Bool
}

extension LineControlLedger {
    /// Never halted.
    public func lineHalt() async throws -> LineHalt? { nil }
    /// No outcomes: a rule never holds.
    public func lineOutcomes(last: Int) async throws -> [LineAttemptOutcome] { [] }
    /// Nothing recorded.
    public func halt(rule: HaltRule, attempts: [LineAttemptOutcome]) async throws -> Bool { false }
    /// No failures counted.
    public func failedAttempts(device: String) async throws -> Int { 0 }
    /// Nothing recorded.
    public func quarantine(device: String, failures: Int) async throws -> Bool { false }
    /// Nothing is quarantined.
    public func isQuarantined(device: String) async throws -> Bool { false }
}

/// A halted line, as the stations read it from the ledger.
public struct LineHalt: Sendable, Equatable, CustomStringConvertible {
    /// The line's name.
    public var line: String
    /// The rule that held, `failed >= K of last N`.
    public var rule: String
    /// The station that saw it hold.
    public var station: String?
    /// The attempts that tripped it, oldest first.
    public var attempts: [String]

    /// A halt of `line` by `rule`, seen by `station`.
    public init(line: String, rule: String, station: String?, attempts: [String] = []) {
        self.line = line
        self.rule = rule
        self.station = station
        self.attempts = attempts
    }

    /// Whether `other` is the same halt read back (the station that saw it may be known to one only).
    package func isSame(as other: LineHalt) -> Bool {
        rule == other.rule && attempts == other.attempts
    }

    /// "line L halted: failed >= 3 of last 10 held (seen by station S)".
    public var description: String {
        "line \(line) halted: \(rule) held" + (station.map { " (seen by station \($0))" } ?? "")
    }
}

/// One finished attempt of a line, as the halt rule counts it.
public struct LineAttemptOutcome: Sendable, Equatable {
    /// The device's address.
    public var device: String
    /// The attempt's number at the device.
    public var attempt: Int
    /// The station that made it.
    public var station: String
    /// True when it failed.
    public var failed: Bool

    /// An outcome of `device`'s attempt `attempt` on `station`.
    public init(device: String, attempt: Int, station: String, failed: Bool) {
        self.device = device
        self.attempt = attempt
        self.station = station
        self.failed = failed
    }

    /// `DEVICE #N on STATION: failed`.
    public var summary: String { "\(device) #\(attempt) on \(station): \(failed ? "failed" : "succeeded")" }
}

/// What a station does when it finds its line halted.
public enum WhenHalted: String, Sendable, CaseIterable {
    /// Start no new device and poll the ledger until an operator resumes the line (the default:
    /// the station stays up and goes on the moment the line is resumed).
    case wait
    /// Start no new device, let the running ones finish, and end the run (`--exit-when-halted`).
    case exit
}
