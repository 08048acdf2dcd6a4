import DFUBatch
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
    private var claims: [String: Claim] = [:]

    init(ledger: any Ledger, packageSHA256: String, station: String, profile: String, includingDone: Bool = false) {
        self.ledger = ledger
        self.packageSHA256 = packageSHA256
        self.station = station
        self.profile = profile
        self.includingDone = includingDone
    }

    func claim(device: String) async throws -> Bool {
        guard let claim = try await ledger.claim(device: device, packageSHA256: packageSHA256, station: station,
                                                 includingDone: includingDone) else {
            return false
        }
        claims[device] = claim
        return true
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
        try await ledger.recordAttempt(Attempt(
            claim: claim, profile: profile, startedAt: Date(timeIntervalSince1970: attempt.startedAt),
            endedAt: Date(timeIntervalSince1970: attempt.endedAt), bytes: attempt.bytes, result: result,
            errorKind: attempt.errorKind, errorMessage: attempt.errorMessage,
            attemptNumber: claim.nextAttemptNumber + attempt.attempt - 1, seconds: attempt.seconds,
            clock: attempt.clock == .simulated ? .simulated : .wall, deviceVersion: attempt.deviceVersion))
    }

    func release(device: String) async {
        guard let claim = claims.removeValue(forKey: device) else { return }
        try? await ledger.release(claim)
    }
}
