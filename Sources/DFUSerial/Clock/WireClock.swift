/// The clock of real wires: the continuous (monotonic) clock, read as the time since an origin,
/// so that a deadline is a `Duration` as `ByteWire` wants. An endpoint and every wire it opens
/// share one origin, so deadlines carry over from one wire to the next after a device reset.
public struct WireClock: Sendable {
    /// The instant that reads as zero.
    public let origin: ContinuousClock.Instant

    /// A clock that reads zero at `origin` (now by default).
    public init(origin: ContinuousClock.Instant = .now) {
        self.origin = origin
    }

    /// The time since the origin.
    public var now: Duration { ContinuousClock.now - origin }

    /// The instant of `deadline` on this clock.
    public func instant(at deadline: Duration) -> ContinuousClock.Instant {
        origin + deadline
    }

    /// Suspends until `deadline` passed (at once when it has), or the task is cancelled.
    public func sleep(until deadline: Duration) async {
        try? await Task.sleep(until: instant(at: deadline), clock: .continuous)
    }
}
