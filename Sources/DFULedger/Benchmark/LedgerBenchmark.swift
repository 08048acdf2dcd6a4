import Foundation

/// How fast a ledger commits: for `make bench` ("ledger writes per second for SQLite and
/// PostgreSQL").
public enum LedgerBenchmark {
    /// One measurement. A write is one committed call: each device costs two (`claim`, then
    /// `recordAttempt` with a success), the calls a station makes per device.
    public struct Measurement: Sendable, Equatable {
        /// The ledger measured, as `sqlite:PATH` or a PostgreSQL URL without password.
        public var ledger: String
        /// Committed calls made.
        public var writes: Int
        /// Wall-clock seconds they took.
        public var seconds: Double
        /// Tasks writing at once.
        public var concurrency: Int
        /// `writes` over `seconds` (0 when no time passed).
        public var writesPerSecond: Double { seconds > 0 ? Double(writes) / seconds : 0 }
    }

    /// Claims `count` fresh devices and records a succeeded attempt for each (2 x `count` writes),
    /// from `concurrency` tasks, under a package digest no other run uses, and times it.
    /// Every write is durable when its call returns (SQLite: WAL with synchronous=FULL), so on a
    /// local disk this measures fsync latency more than anything else.
    public static func writesPerSecond(ledger: any Ledger, count: Int, concurrency: Int = 1,
                                       station: String = "bench") async throws(LedgerError) -> Measurement {
        let package = "bench-" + UUID().uuidString.lowercased()
        let workers = max(1, min(concurrency, count))
        let clock = ContinuousClock()
        let started = clock.now
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<workers {
                    group.addTask {
                        for index in stride(from: worker, to: count, by: workers) {
                            try await writeOneDevice(ledger: ledger, index: index, package: package, station: station)
                        }
                    }
                }
                try await group.waitForAll()
            }
        } catch let error as LedgerError {
            throw error
        } catch {
            throw LedgerError(.statementFailed, ledger: ledger.location, operation: "benchmark", message: "\(error)")
        }
        let elapsed = started.duration(to: clock.now).components
        return Measurement(ledger: ledger.location, writes: 2 * count,
                           seconds: Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18, concurrency: workers)
    }

    private static func writeOneDevice(ledger: any Ledger, index: Int, package: String,
                                       station: String) async throws(LedgerError) {
        let device = String(format: "BE:NC:00:%02X:%02X:%02X", (index >> 16) & 0xFF, (index >> 8) & 0xFF, index & 0xFF)
        guard let claim = try await ledger.claim(device: device, packageSHA256: package, station: station) else {
            throw LedgerError(.statementFailed, ledger: ledger.location, operation: "benchmark",
                              message: "the fresh device \(device) could not be claimed")
        }
        let now = Date()
        try await ledger.recordAttempt(Attempt(claim: claim, profile: "bench", startedAt: now, endedAt: now,
                                               bytes: 0, result: .succeeded))
    }
}
