import DFUKit
import DFULedger
import Foundation

/// The batch runner's view of a `DFULedger` ledger: claims per device for one package and
/// station, attempts recorded under them.
actor LedgerBatchAdapter: BatchLedger {
    private let ledger: any Ledger
    private let packageSHA256: String
    private let station: String
    private let profile: String
    /// The line's name: its halts, and the attempts its halt rule counts.
    private let line: String
    /// `skip-done: false`: devices done with the package are claimed (and flashed) again.
    private let includingDone: Bool
    /// Signs each attempt's audit record (`--audit-key`); nil: no records.
    private let audit: AuditRecordBuilder?
    private var claims: [String: Claim] = [:]
    /// Claim ids asked for and not answered yet (the call failed and may be retried).
    private var pendingClaimIDs: [String: String] = [:]

    init(ledger: any Ledger, packageSHA256: String, station: String, profile: String, line: String,
         includingDone: Bool = false, audit: AuditRecordBuilder? = nil) {
        self.line = line
        self.audit = audit
        self.ledger = ledger
        self.packageSHA256 = packageSHA256
        self.station = station
        self.profile = profile
        self.includingDone = includingDone
    }

    /// The claim is asked for under one id until the ledger answers, so a retry after a lost
    /// answer finds the claim it made instead of being refused by it.
    func claim(device: String) async throws -> Bool {
        let id = pendingClaimIDs[device] ?? UUID().uuidString
        pendingClaimIDs[device] = id
        let claim: Claim?
        do {
            claim = try await ledger.claim(device: device, packageSHA256: packageSHA256, station: station, id: id,
                                       includingDone: includingDone)
        } catch {
            throw Self.batchError(error)
        }
        pendingClaimIDs[device] = nil
        guard let claim else { return false }
        claims[device] = claim
        return true
    }

    func heartbeat(device: String) async throws {
        guard let claim = claims[device] else {
            throw BatchLedgerError(.claimLost, "this station holds no claim on \(device)")
        }
        do {
            try await ledger.heartbeat(claim)
        } catch {
            throw Self.batchError(error)
        }
    }

    /// Lost claims and refused arguments are final; anything else may pass (the runner retries it).
    private static func batchError(_ error: LedgerError) -> any Error {
        switch error.kind {
        case .claimLost: return BatchLedgerError(.claimLost, error.description)
        case .invalidArgument: return BatchLedgerError(.rejected, error.description)
        case .invalidURL, .cannotOpen, .notALedger, .statementFailed: return error
        }
    }

    func record(_ attempt: AttemptRecord) async throws {
        guard let claim = claims[attempt.device] else { return }
        let result: Attempt.Result
        switch attempt.result {
        case .succeeded: result = .succeeded
        case .failed: result = .failed
        case .cancelled: result = .cancelled
        case .skipped: result = .skipped
        }
        var recorded = Attempt(
            claim: claim, profile: profile, startedAt: Date(timeIntervalSince1970: attempt.startedAt),
            endedAt: Date(timeIntervalSince1970: attempt.endedAt), bytes: attempt.bytes, result: result,
            errorKind: attempt.errorKind, errorMessage: attempt.errorMessage,
            attemptNumber: claim.nextAttemptNumber + attempt.attempt - 1, seconds: attempt.seconds,
            clock: attempt.clock == .simulated ? .simulated : .wall, deviceVersion: attempt.deviceVersion, line: line)
        recorded.radio = attempt.radio
        do {
            try await ledger.recordAttempt(recorded, audit: audit?.signed(recorded, claim: claim, from: attempt))
        } catch {
            throw Self.batchError(error)
        }
    }

    /// The ledger's number of attempt `attempt` of this run at `device` (it counts the attempts of
    /// earlier runs, as the records do); `attempt` itself when the device is not claimed here.
    func attemptNumber(device: String, attempt: Int) -> Int {
        claims[device].map { $0.nextAttemptNumber + attempt - 1 } ?? attempt
    }

    func release(device: String) async throws {
        guard let claim = claims[device] else { return }
        do {
            try await ledger.release(claim)
        } catch {
            throw Self.batchError(error)
        }
        claims[device] = nil
    }

    // MARK: Line controls

    func lineHalt() async throws -> LineHalt? {
        let events: [LineEvent]
        do { events = try await ledger.lineEvents(line: line) } catch { throw Self.batchError(error) }
        guard let halt = LineEvent.currentHalt(of: line, in: events) else { return nil }
        return LineHalt(line: line, rule: halt.rule ?? "?", station: halt.station, attempts: halt.attempts)
    }

    func lineOutcomes(last: Int) async throws -> [LineAttemptOutcome] {
        do {
            return try await ledger.lineOutcomes(line: line, last: last).map {
                LineAttemptOutcome(device: $0.device, attempt: $0.attemptNumber, station: $0.station, failed: $0.failed)
            }
        } catch {
            throw Self.batchError(error)
        }
    }

    func halt(rule: HaltRule, attempts: [LineAttemptOutcome]) async throws -> Bool {
        let failed = attempts.filter(\.failed).count
        let event = LineEvent(kind: .halted, line: line, station: station,
                              reason: "\(failed) of the line's last \(attempts.count) finished attempt(s) failed",
                              rule: rule.description, attempts: attempts.map(\.summary))
        do { return try await ledger.recordLineEvent(event) } catch { throw Self.batchError(error) }
    }

    func failedAttempts(device: String) async throws -> Int {
        do { return try await ledger.failedAttempts(device: device, packageSHA256: packageSHA256) } catch { throw Self.batchError(error) }
    }

    func quarantine(device: String, failures: Int) async throws -> Bool {
        let event = LineEvent(kind: .quarantined, line: line, station: station,
                              reason: "\(failures) failed attempt(s) with this package", device: device,
                              packageSHA256: packageSHA256)
        do { return try await ledger.recordLineEvent(event) } catch { throw Self.batchError(error) }
    }

    func isQuarantined(device: String) async throws -> Bool {
        do {
            return LineEvent.currentQuarantine(of: device, in: try await ledger.lineEvents(line: nil)) != nil
        } catch {
            throw Self.batchError(error)
        }
    }
}
