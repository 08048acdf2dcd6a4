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
    /// `skip-done: false`: devices done with the package are claimed (and flashed) again.
    private let includingDone: Bool
    /// Signs each attempt's audit record (`--audit-key`); nil: no records.
    private let audit: AuditRecordBuilder?
    private var claims: [String: Claim] = [:]
    /// Claim ids asked for and not answered yet (the call failed and may be retried).
    private var pendingClaimIDs: [String: String] = [:]

    init(ledger: any Ledger, packageSHA256: String, station: String, profile: String, includingDone: Bool = false,
         audit: AuditRecordBuilder? = nil) {
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
        let recorded = Attempt(
            claim: claim, profile: profile, startedAt: Date(timeIntervalSince1970: attempt.startedAt),
            endedAt: Date(timeIntervalSince1970: attempt.endedAt), bytes: attempt.bytes, result: result,
            errorKind: attempt.errorKind, errorMessage: attempt.errorMessage,
            attemptNumber: claim.nextAttemptNumber + attempt.attempt - 1, seconds: attempt.seconds,
            clock: attempt.clock == .simulated ? .simulated : .wall, deviceVersion: attempt.deviceVersion)
        do {
            try await ledger.recordAttempt(recorded, audit: audit?.signed(recorded, claim: claim, from: attempt))
        } catch {
            throw Self.batchError(error)
        }
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
}
