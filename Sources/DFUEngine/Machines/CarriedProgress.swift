/// How far a transfer written without response got on air, not in the link's queue: each write
/// records the transfer's progress once it is accepted, and the link says how many writes are
/// still queued; the progress is that of the last write that went out. Pure bookkeeping.
struct CarriedProgress: Equatable {
    /// The transfer's progress after each write without response, in order.
    private var marks: [Int] = []
    /// The last progress reported: carried writes are reported only past it.
    private(set) var lastReported: Int?

    /// A write without response was accepted; the transfer then stood at `progress`.
    mutating func wrote(progress: Int) {
        marks.append(progress)
    }

    /// The progress the link carried while `inFlight` writes are still queued; nil when it is
    /// not further than what was reported.
    mutating func carried(inFlight: Int) -> Int? {
        let index = marks.count - 1 - max(0, inFlight)
        guard index >= 0 else { return nil }
        return advance(to: marks[index])
    }

    /// Progress reported otherwise (a write with response, a receipt): carried writes are
    /// reported only past it.
    mutating func reported(_ progress: Int) {
        lastReported = progress
    }

    private mutating func advance(to progress: Int) -> Int? {
        guard progress > (lastReported ?? Int.min) else { return nil }
        lastReported = progress
        return progress
    }
}
