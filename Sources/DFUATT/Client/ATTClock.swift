/// The clock ATT deadlines run on: time since an arbitrary origin, and a way to wait for a
/// point in it. `ContinuousATTClock` for real links; tests drive their own.
package protocol ATTClock: Sendable {
    /// Time since this clock's origin.
    var now: Duration { get }
    /// Returns once `now >= deadline`; throws `CancellationError` if the task is cancelled
    /// first.
    func sleep(until deadline: Duration) async throws
}

/// Wall-clock time (`ContinuousClock`, which keeps counting while the machine sleeps) since
/// the clock was made.
package struct ContinuousATTClock: ATTClock {
    private let origin: ContinuousClock.Instant

    package init() { origin = ContinuousClock.now }

    package var now: Duration { ContinuousClock.now - origin }

    package func sleep(until deadline: Duration) async throws {
        try await ContinuousClock().sleep(until: origin.advanced(by: deadline), tolerance: nil)
    }
}
