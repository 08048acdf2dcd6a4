/// `sim:NAME?realtime=SPEED`: a simulated world whose virtual clock follows the wall clock,
/// SPEED times faster (1: real time; 10: ten simulated seconds per wall second; 0.5: half speed).
///
/// Without it a world runs its virtual clock as fast as the CPU allows, so a whole update takes
/// milliseconds and nothing that counts wall time (a ledger lease, a heartbeat, a person pressing
/// Ctrl-C, a station stalled by SIGSTOP) ever meets a device mid-transfer. With it, every call the
/// central makes into the world (a scan, a connect, a read, a write, a wait for a notification, a
/// sleep) returns only once the wall clock has caught up with the virtual clock: the world never
/// runs ahead of the wall clock by more than the one call in progress. Time the process spends
/// stopped (SIGSTOP) or starved is lost to the world, not made up in a burst (`WallClockPacer`).
/// A task that is cancelled stops waiting at once (the call returns; the next one notices the
/// cancellation).
public struct WallClockPacing: Sendable, Equatable {
    /// Simulated seconds per wall-clock second.
    package var speed: Double

    /// Pacing at `speed` simulated seconds per wall second; `speed` must be positive.
    public init(speed: Double) {
        precondition(speed > 0, "a realtime speed factor must be positive")
        self.speed = speed
    }

    /// The wall-clock time that `virtual` of simulated time takes at this speed.
    package func wallTime(for virtual: Duration) -> Duration {
        virtual / speed
    }
}

/// One world's anchor between its virtual clock and the wall clock (`ContinuousClock`).
///
/// When the wall clock is found well past the moment the virtual clock stands for (the process
/// was stopped with SIGSTOP, or starved of CPU), the anchor moves: the world goes on at its pace
/// from where it stands instead of racing to catch up. A station resumed after a stall thus
/// finds its transfers going on at link speed, as a real radio's would (a catch-up would send
/// the rest of an image in an instant, before any heartbeat could run).
final class WallClockPacer {
    /// How late the wall clock may be before the world stops counting that time as its own.
    static let stallThreshold: Duration = .milliseconds(100)

    let pacing: WallClockPacing
    private var wallAnchor: ContinuousClock.Instant
    private var virtualAnchor: Duration

    init(_ pacing: WallClockPacing, virtualStart: Duration) {
        self.pacing = pacing
        self.wallAnchor = .now
        self.virtualAnchor = virtualStart
    }

    /// Waits until the wall clock reaches the moment that `virtual` corresponds to.
    func keepUp(with virtual: Duration) async {
        let due = wallAnchor + pacing.wallTime(for: virtual - virtualAnchor)
        let now = ContinuousClock.now
        if now > due + Self.stallThreshold {
            wallAnchor = now
            virtualAnchor = virtual
            return
        }
        guard due > now else { return }
        try? await Task.sleep(until: due, clock: .continuous)
    }
}
