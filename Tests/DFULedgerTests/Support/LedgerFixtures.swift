import DFULedger
import Foundation

/// Attempts and devices the tests share.
enum LedgerFixtures {
    /// A session of a process that has ended: this pid with another start time (as after the pid
    /// was reused), so `LedgerSession.isProvablyGone` holds for it.
    static func endedProcessSession() -> LedgerSession {
        let current = LedgerSession.current()
        return LedgerSession(host: current.host, pid: current.pid, startTime: current.startTime + 1)
    }

    static let package = String(repeating: "ab", count: 32)
    static let start = Date(timeIntervalSince1970: 1_714_550_400)  // 2024-05-01T08:00:00Z

    /// `C0:FF:EE:00:00:01`-style addresses.
    static func device(_ index: Int, prefix: String = "C0:FF:EE") -> String {
        String(format: "%@:%02X:%02X:%02X", prefix, (index >> 16) & 0xFF, (index >> 8) & 0xFF, index & 0xFF)
    }

    /// A fresh package digest, so that tests sharing one database never see each other's devices.
    static func freshPackage() -> String {
        (UUID().uuidString + UUID().uuidString).replacingOccurrences(of: "-", with: "").lowercased().prefix(64)
            .description
    }

    /// An attempt under `claim` that lasted `seconds` from `start + offset`.
    static func attempt(_ claim: Claim, result: Attempt.Result, offset: Double = 0, seconds: Double = 10,
                        bytes: Int = 100_000, errorKind: String? = nil, errorMessage: String? = nil,
                        serial: String? = nil) -> Attempt {
        Attempt(claim: claim, serial: serial, profile: "vendor-ctrlpt", startedAt: start.addingTimeInterval(offset),
                endedAt: start.addingTimeInterval(offset + seconds), bytes: bytes, result: result,
                errorKind: errorKind, errorMessage: errorMessage)
    }

    /// Claims, flashes (instantly) and records success for `device`; returns whether this call did it.
    @discardableResult
    static func flashOnce(_ ledger: any Ledger, device: String, package: String, station: String) async throws -> Bool {
        guard let claim = try await ledger.claim(device: device, packageSHA256: package, station: station) else {
            return false
        }
        try await ledger.recordAttempt(attempt(claim, result: .succeeded))
        return true
    }
}
