import Foundation

/// One line control in the ledger: a line halted by its rule or resumed by an operator, a device
/// quarantined after too many failed attempts or released by an operator. Written by
/// `Ledger.recordLineEvent`, read back by `Ledger.lineEvents` in the order recorded (schema 4).
public struct LineEvent: Sendable, Hashable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The line's halt rule held: no station of the line starts a new device until a resume.
        case halted
        /// An operator resumed a halted line (`dfukit station resume`).
        case resumed
        /// A device failed `--quarantine-after` times: it is never claimed again automatically.
        case quarantined
        /// An operator put a quarantined device back (`dfukit station release`).
        case released
    }

    /// What happened.
    public var kind: Kind
    /// The line's name (`--line`, `line:`); nil for a release, which frees the device on every line.
    public var line: String?
    /// When it was recorded (the ledger's clock).
    public var at: Date
    /// The station that saw the halt or quarantined the device; nil for an operator's action.
    public var station: String?
    /// Who resumed or released (`--operator`); nil when the line did it itself.
    public var operatorName: String?
    /// Why: the operator's `--reason`, or the line's own words for a halt or quarantine.
    public var reason: String?
    /// The halt rule that held, `failed >= K of last N`.
    public var rule: String?
    /// The attempts that tripped a halt, oldest first, each `DEVICE #N on STATION: RESULT`.
    public var attempts: [String]
    /// The device quarantined or released.
    public var device: String?
    /// The package the quarantined device failed with.
    public var packageSHA256: String?

    /// An event of `kind`; the ledger sets `at` when it records it.
    public init(kind: Kind, line: String?, at: Date = Date(), station: String? = nil, operatorName: String? = nil,
                reason: String? = nil, rule: String? = nil, attempts: [String] = [], device: String? = nil,
                packageSHA256: String? = nil) {
        self.kind = kind
        self.line = line
        self.at = at
        self.station = station
        self.operatorName = operatorName
        self.reason = reason
        self.rule = rule
        self.attempts = attempts
        self.device = device
        self.packageSHA256 = packageSHA256
    }

    /// The halt in force on `line` in `events` (recorded order): its latest `halted` when no
    /// `resumed` came after it, else nil.
    public static func currentHalt(of line: String, in events: [LineEvent]) -> LineEvent? {
        let last = events.last { $0.line == line && ($0.kind == .halted || $0.kind == .resumed) }
        return last?.kind == .halted ? last : nil
    }

    /// The quarantine in force on `device` in `events`: its latest `quarantined` when no
    /// `released` came after it, else nil.
    public static func currentQuarantine(of device: String, in events: [LineEvent]) -> LineEvent? {
        let last = events.last { $0.device == device && ($0.kind == .quarantined || $0.kind == .released) }
        return last?.kind == .quarantined ? last : nil
    }

    /// Whether recording `self` after `events` changes anything: a halt only on a running line, a
    /// resume only on a halted one, a quarantine only of a free device, a release only of a
    /// quarantined one. The ledgers apply this rule inside the recording transaction.
    package func changesState(after events: [LineEvent]) -> Bool {
        switch kind {
        case .halted: return line.map { Self.currentHalt(of: $0, in: events) == nil } ?? false
        case .resumed: return line.map { Self.currentHalt(of: $0, in: events) != nil } ?? false
        case .quarantined: return device.map { Self.currentQuarantine(of: $0, in: events) == nil } ?? false
        case .released: return device.map { Self.currentQuarantine(of: $0, in: events) != nil } ?? false
        }
    }

    /// The events `changesState` looks at: the line's halts and resumes, or the device's
    /// quarantines and releases (as a SQL condition on `dfukit_line_events`, `?L`/`?D` the line and device).
    package var stateColumn: (column: String, value: String?) {
        switch kind {
        case .halted, .resumed: return ("line", line)
        case .quarantined, .released: return ("device", device)
        }
    }

    /// `attempts` as stored in the ledger's `attempts` column: one per line.
    package var attemptsText: String? { attempts.isEmpty ? nil : attempts.joined(separator: "\n") }

    /// `attempts` from the ledger's `attempts` column.
    package static func attempts(fromText text: String?) -> [String] {
        text.map { $0.split(separator: "\n").map(String.init) } ?? []
    }
}

/// One finished attempt of a line (succeeded or failed) as the halt rule sees it.
public struct LineOutcome: Sendable, Hashable {
    /// The device's address.
    public var device: String
    /// The attempt's number at the device (across runs).
    public var attemptNumber: Int
    /// The station that made it.
    public var station: String
    /// True when it failed.
    public var failed: Bool

    /// An outcome of `device`'s attempt `attemptNumber` on `station`.
    public init(device: String, attemptNumber: Int, station: String, failed: Bool) {
        self.device = device
        self.attemptNumber = attemptNumber
        self.station = station
        self.failed = failed
    }

    /// `DEVICE #N on STATION: failed`, as a halt event lists it.
    public var summary: String { "\(device) #\(attemptNumber) on \(station): \(failed ? "failed" : "succeeded")" }
}
