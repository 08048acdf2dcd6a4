import DFUBytes
import DFULedger
import Foundation

/// Signed audit records as a line writes them, for the SQLite and PostgreSQL tests.
enum AuditFixtures {
    /// The record a station signs for `attempt`.
    static func record(for attempt: Attempt, operatorName: String = "ada") -> AuditRecord {
        var record = AuditRecord(address: attempt.device, profile: attempt.profile, packageSHA256: attempt.packageSHA256,
                                 images: [.init(name: "application", version: "1.2.0", sha256: String(repeating: "cd", count: 32))],
                                 result: attempt.result.rawValue, attempt: attempt.attemptNumber, claimID: attempt.claimID,
                                 station: attempt.station, startedAt: attempt.startedAt, endedAt: attempt.endedAt,
                                 seconds: attempt.seconds, clock: "simulated")
        record.versionBefore = "1.1.0"
        record.versionAfter = attempt.result == .succeeded ? "1.2.0" : nil
        record.deviceHolds = [attempt.result == .succeeded ? "confirmed" : "unchanged"]
        record.evidence = "the device reported version 1.2.0 after its reboot"
        var link = AuditRecord.Link(source: "model")
        link.mtu = 247
        link.txPHY = "2M"
        record.link = link
        record.operatorName = operatorName
        return record
    }

    /// Flashes `devices` (the first fails once, then succeeds), recording each attempt with its
    /// record signed by `key`; returns the attempts in the order recorded.
    @discardableResult
    static func recordSignedLine(into ledger: any Ledger, key: Ed25519PrivateKey, package: String, devices: [String],
                                 station: String = "line-1") async throws -> [Attempt] {
        var recorded: [Attempt] = []
        for (index, device) in devices.enumerated() {
            guard let claim = try await ledger.claim(device: device, packageSHA256: package, station: station) else { continue }
            var results: [Attempt.Result] = index == 0 ? [.failed, .succeeded] : [.succeeded]
            var number = claim.nextAttemptNumber
            while !results.isEmpty {
                let result = results.removeFirst()
                let attempt = LedgerFixtures.attempt(claim, result: result, offset: Double(recorded.count * 20),
                                                     errorKind: result == .failed ? "timeout" : nil)
                var numbered = attempt
                numbered.attemptNumber = number
                number += 1
                try await ledger.recordAttempt(numbered, audit: SignedAuditRecord(signing: record(for: numbered), with: key))
                recorded.append(numbered)
            }
        }
        return recorded
    }
}
