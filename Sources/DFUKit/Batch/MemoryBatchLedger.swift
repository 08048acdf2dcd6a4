import Synchronization

/// A ledger kept in memory for one process: the default of `DFUKit.batch`. It keeps a device
/// from being flashed twice within the process and keeps every attempt (`records`), but
/// forgets all when the process ends; a provisioning line that must survive restarts or share
/// devices between stations uses `dfukit batch run` with its SQLite or PostgreSQL ledger.
public final class MemoryBatchLedger: BatchLedger {
    private struct State {
        var claimed: Set<String> = []
        var done: Set<String> = []
        var records: [AttemptRecord] = []
        /// The line's finished attempts since its last resume (true: failed).
        var outcomes: [LineAttemptOutcome] = []
        var halt: LineHalt?
        var failures: [String: Int] = [:]
        var quarantined: Set<String> = []
    }

    private let state = Mutex(State())
    /// The line's name in halts.
    private let line: String
    /// The station's name in the outcomes the halt rule counts.
    private let station: String

    /// An empty ledger for `line`, written to by `station`.
    public init(line: String = "line", station: String = "station") {
        self.line = line
        self.station = station
    }

    /// The halt in force, or nil.
    public func lineHalt() async throws -> LineHalt? { state.withLock { $0.halt } }

    /// The last `last` finished attempts since the last resume.
    public func lineOutcomes(last: Int) async throws -> [LineAttemptOutcome] { state.withLock { Array($0.outcomes.suffix(last)) } }

    /// Halts the line unless it is halted already.
    public func halt(rule: HaltRule, attempts: [LineAttemptOutcome]) async throws -> Bool {
        state.withLock { state in
            guard state.halt == nil else { return false }
            state.halt = LineHalt(line: line, rule: rule.description, station: station, attempts: attempts.map(\.summary))
            return true
        }
    }

    /// Resumes a halted line (the operator's part); false when it was not halted. The halt rule
    /// then counts only later attempts.
    @discardableResult
    public func resume() -> Bool {
        state.withLock { state in
            guard state.halt != nil else { return false }
            state.halt = nil
            state.outcomes = []
            return true
        }
    }

    /// The device's failed attempts since its last release.
    public func failedAttempts(device: String) async throws -> Int { state.withLock { $0.failures[device] ?? 0 } }

    /// Quarantines the device unless it is already.
    public func quarantine(device: String, failures: Int) async throws -> Bool {
        state.withLock { $0.quarantined.insert(device).inserted }
    }

    /// Whether the device is quarantined.
    public func isQuarantined(device: String) async throws -> Bool { state.withLock { $0.quarantined.contains(device) } }

    /// Puts a quarantined device back, its failures forgotten; false when it was not quarantined.
    @discardableResult
    public func releaseQuarantine(device: String) -> Bool {
        state.withLock { state in
            state.failures[device] = nil
            return state.quarantined.remove(device) != nil
        }
    }

    /// Every attempt recorded, in order.
    public var records: [AttemptRecord] { state.withLock { $0.records } }

    /// False when the device is done or claimed already.
    public func claim(device: String) async throws -> Bool {
        state.withLock { state in
            guard !state.done.contains(device), !state.claimed.contains(device) else { return false }
            state.claimed.insert(device)
            return true
        }
    }

    /// Nothing to extend: claims in memory do not expire.
    public func heartbeat(device: String) async throws {
        let held = state.withLock { $0.claimed.contains(device) }
        if !held { throw BatchLedgerError(.claimLost, "\(device) is not claimed") }
    }

    /// Keeps the attempt; a succeeded or skipped one marks the device done.
    public func record(_ attempt: AttemptRecord) async throws {
        state.withLock { state in
            state.records.append(attempt)
            if attempt.result == .succeeded || attempt.result == .failed {
                state.outcomes.append(LineAttemptOutcome(device: attempt.device, attempt: attempt.attempt, station: station,
                                                         failed: attempt.result == .failed))
                if state.outcomes.count > HaltRule.maximumWindow { state.outcomes.removeFirst() }
            }
            if attempt.result == .failed { state.failures[attempt.device, default: 0] += 1 }
            if attempt.result == .succeeded || attempt.result == .skipped {
                state.done.insert(attempt.device)
                state.claimed.remove(attempt.device)
            }
        }
    }

    /// Gives the claim back.
    public func release(device: String) async throws {
        _ = state.withLock { $0.claimed.remove(device) }
    }
}
