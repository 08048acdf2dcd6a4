/// How the runner retries a ledger call that failed for a reason that may pass (a server
/// restarting, a network drop, a SQLite file locked): waits that double from `firstDelay` up to
/// `maximumDelay`, for at most `giveUpAfter` since the first failure. Past that the ledger counts
/// as unreachable: the batch starts no more devices and `batch run` exits 74.
public struct LedgerRetryPolicy: Sendable {
    package var firstDelay: Duration
    package var maximumDelay: Duration
    /// How long after the first failure of a call the ledger counts as unreachable.
    public var giveUpAfter: Duration

    /// A policy that waits `firstDelay`, doubled after each failure up to `maximumDelay`, and gives
    /// up `giveUpAfter` after the first failure.
    public init(firstDelay: Duration = .milliseconds(250), maximumDelay: Duration = .seconds(5),
                giveUpAfter: Duration = .seconds(30)) {
        self.firstDelay = firstDelay
        self.maximumDelay = maximumDelay
        self.giveUpAfter = giveUpAfter
    }

    /// The wait after failure number `failures` (1, 2, ...).
    package func delay(afterFailure failures: Int) -> Duration {
        var delay = firstDelay
        for _ in 1..<max(1, failures) where delay < maximumDelay { delay *= 2 }
        return min(delay, maximumDelay)
    }
}
