import DFULedger
import Foundation

/// A simulated day on a line: 24 devices over two stations, some retried, some failed, one
/// cancelled; deterministic, so the report it gives is always the same.
enum SampleLine {
    static let package = "9d5ed678fe57bcca610140957afab571a7e2c3a0c3d2f6a1b4e8f9d0c1b2a3f4"

    /// Writes the line into `ledger` through the public API, as `batch run` would.
    static func record(into ledger: any Ledger) async throws {
        var generator = SplitMix64(seed: 7)
        let causes = ["timeout", "disconnected", "device-error:0x05", "crc-mismatch"]
        var clock = LedgerFixtures.start
        for index in 0..<24 {
            let station = index.isMultiple(of: 2) ? "line-1" : "line-2"
            let device = LedgerFixtures.device(index + 1, prefix: "F4:12:FA")
            guard let claim = try await ledger.claim(device: device, packageSHA256: package, station: station) else { continue }
            let failures = index % 7 == 3 ? 3 : (index % 5 == 1 ? 1 : 0)
            for attempt in 1...max(1, min(failures + 1, 3)) {
                let seconds = 9 + Double(generator.next() % 700) / 100
                let failed = attempt <= failures
                let cancelled = index == 22
                let bytes = failed ? Int(generator.next() % 200_000) : 245_760
                let kind = causes[Int(generator.next() % UInt64(causes.count))]
                try await ledger.recordAttempt(Attempt(
                    claim: claim, serial: failed ? nil : String(format: "SN-%04d", 1000 + index), profile: "vendor-ctrlpt",
                    startedAt: clock, endedAt: clock.addingTimeInterval(seconds), bytes: bytes,
                    result: cancelled ? .cancelled : (failed ? .failed : .succeeded),
                    errorKind: failed ? kind : nil, errorMessage: failed ? "attempt \(attempt): \(kind) at offset \(bytes)" : nil,
                    attemptNumber: attempt))
                clock = clock.addingTimeInterval(seconds / 2)
                if cancelled { break }
            }
            try await ledger.release(claim)
        }
    }
}

/// A small deterministic random number generator.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
