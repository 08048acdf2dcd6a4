/// `sim:NAME?realtime=SPEED`: a simulated world whose virtual clock follows the wall clock,
/// SPEED times faster (1: real time; 10: ten simulated seconds per wall second; 0.5: half speed).
///
/// Without it a world runs its virtual clock as fast as the CPU allows, so a whole update takes
/// milliseconds and nothing that counts wall time (a ledger lease, a heartbeat, a person pressing
/// Ctrl-C, a station stalled by SIGSTOP) ever meets a device mid-transfer. With it, every call the
/// central makes into the world (a scan, a connect, a read, a write, a wait for a notification, a
/// sleep) returns only once the wall clock has caught up with the virtual clock: the world never
/// runs ahead of the wall clock by more than the one call in progress. A task that is cancelled
/// stops waiting at once (the call returns; the next one notices the cancellation).
public struct WallClockPacing: Sendable, Equatable {
    /// Simulated seconds per wall-clock second.
    public var speed: Double

    public init(speed: Double) {
        precondition(speed > 0, "a realtime speed factor must be positive")
        self.speed = speed
    }

    /// The wall-clock time that `virtual` of simulated time takes at this speed.
    public func wallTime(for virtual: Duration) -> Duration {
        virtual / speed
    }
}

/// One world's anchor between its virtual clock and the wall clock (`ContinuousClock`, which
/// keeps counting while the process is stopped: a station resumed after SIGSTOP finds its
/// devices' clocks behind and lets them catch up at once, as a real device's time ran on).
final class WallClockPacer {
    let pacing: WallClockPacing
    private let wallStart: ContinuousClock.Instant
    private let virtualStart: Duration

    init(_ pacing: WallClockPacing, virtualStart: Duration) {
        self.pacing = pacing
        self.wallStart = .now
        self.virtualStart = virtualStart
    }

    /// Waits until the wall clock reaches the moment that `virtual` corresponds to.
    func keepUp(with virtual: Duration) async {
        let due = wallStart + pacing.wallTime(for: virtual - virtualStart)
        guard due > .now else { return }
        try? await Task.sleep(until: due, clock: .continuous)
    }
}
