import DFULedger
import Foundation

/// A long simulated shift: `devices` devices over three stations of four slots each, on the
/// simulated clock, with retries, failures, skips (devices already running the target) and a
/// pause between two runs; deterministic.
enum LargeSampleLine {
    static let package = "7c1e0a9b5d3f2e4c6b8a0d1f3e5c7b9a1d3f5e7c9b1a3d5f7e9c1b3a5d7f9e1c"

    static func attempts(devices: Int = 500) -> [Attempt] {
        var generator = SplitMix64(seed: 11)
        var attempts: [Attempt] = []
        let stations = ["line-1", "line-2", "line-3"]
        // Each station's four slots, as seconds from the start of the shift.
        var slots = Array(repeating: Array(repeating: 0.0, count: 4), count: stations.count)
        for index in 0..<devices {
            let station = index % stations.count
            let slot = slots[station].indices.min { slots[station][$0] < slots[station][$1] }!
            if index == devices / 2 {
                // The second run starts an hour after the first ended.
                let end = slots.flatMap { $0 }.max()! + 3600
                slots = slots.map { $0.map { _ in end } }
            }
            let device = LedgerFixtures.device(index + 1, prefix: "F4:12:FA")
            let failures = index % 11 == 4 ? 3 : (index % 6 == 1 ? 1 : 0)
            let skipped = index % 25 == 7
            for attempt in 1...(skipped ? 1 : min(failures + 1, 3)) {
                let seconds = skipped ? 0.4 : 20 + Double(generator.next() % 2_500) / 100
                let failed = !skipped && attempt <= failures
                let start = LedgerFixtures.start.addingTimeInterval(slots[station][slot])
                let result: Attempt.Result = skipped ? .skipped : (failed ? .failed : .succeeded)
                attempts.append(Attempt(
                    claimID: "claim-\(index)", device: device, packageSHA256: package, profile: "vendor-ctrlpt",
                    station: stations[station], startedAt: start, endedAt: start.addingTimeInterval(seconds),
                    bytes: skipped ? 0 : (failed ? Int(generator.next() % 200_000) : 245_760), result: result,
                    errorKind: failed ? ["timeout", "disconnected", "crc-mismatch"][index % 3] : nil,
                    errorMessage: failed ? "attempt \(attempt) failed" : nil, attemptNumber: attempt,
                    seconds: seconds, clock: .simulated, deviceVersion: skipped ? "1.4.2" : nil))
                slots[station][slot] += seconds + (failed ? 2 : 0)
            }
        }
        return attempts
    }

    /// Writes the attempts into `ledger` through the public API, claim by claim.
    static func record(into ledger: any Ledger, devices: Int = 500) async throws {
        let attempts = attempts(devices: devices)
        var claims: [String: Claim] = [:]
        for attempt in attempts {
            if claims[attempt.device] == nil {
                claims[attempt.device] = try await ledger.claim(device: attempt.device, packageSHA256: package,
                                                                station: attempt.station)
            }
            guard let claim = claims[attempt.device] else { continue }
            try await ledger.recordAttempt(Attempt(
                claim: claim, profile: attempt.profile, startedAt: attempt.startedAt, endedAt: attempt.endedAt,
                bytes: attempt.bytes, result: attempt.result, errorKind: attempt.errorKind,
                errorMessage: attempt.errorMessage, attemptNumber: attempt.attemptNumber, seconds: attempt.seconds,
                clock: attempt.clock, deviceVersion: attempt.deviceVersion))
        }
    }
}
