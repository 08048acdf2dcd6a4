/// Follows one image's transfer through a command's runs of it (a lost link resumed within the
/// command starts another run): what the device held when the command started moving it, what
/// this command sent, and the time spent transferring, counted from each run's own start so
/// that reconnecting is not transfer time. Pure: fed the engine's events, tested without them.
struct TransferMeter: Sendable {
    let image: String
    let total: Int
    /// What the device held when this command first started moving the image; nil before.
    private(set) var heldAtStart: Int?
    private var sentBefore = 0
    private var timeBefore: Duration = .zero
    private var run: Run?
    private var last: (done: Int, elapsed: Duration)?

    private struct Run: Sendable {
        var offset: Int
        var startedAt: Duration
    }

    init(image: String, total: Int) {
        self.image = image
        self.total = total
    }

    /// A run starts moving data with the device holding `offset` bytes, `elapsed` into the command.
    mutating func started(offset: Int, at elapsed: Duration) {
        if let run, let last {
            sentBefore += max(0, last.done - run.offset)
            timeBefore += max(.zero, last.elapsed - run.startedAt)
        }
        if heldAtStart == nil { heldAtStart = offset }
        run = Run(offset: offset, startedAt: elapsed)
        last = nil
    }

    /// The device holds `done` bytes, `elapsed` into the command. Progress without an announced
    /// start counts from itself (and claims nothing about what the device held before).
    mutating func progressed(done: Int, at elapsed: Duration) -> TransferProgress {
        if run == nil {
            heldAtStart = heldAtStart ?? 0
            started(offset: done, at: elapsed)
        }
        let run = self.run ?? Run(offset: done, startedAt: elapsed)
        last = (done, elapsed)
        return TransferProgress(image: image, done: done, total: total, heldAtStart: heldAtStart ?? 0,
                                sentThisRun: sentBefore + max(0, done - run.offset),
                                transferTime: timeBefore + max(.zero, elapsed - run.startedAt), elapsed: elapsed)
    }

    /// Where the transfer stands now; nil before it started.
    var latest: TransferProgress? {
        guard let run else { return nil }
        let done = last?.done ?? run.offset, elapsed = last?.elapsed ?? run.startedAt
        return TransferProgress(image: image, done: done, total: total, heldAtStart: heldAtStart ?? 0,
                                sentThisRun: sentBefore + max(0, done - run.offset),
                                transferTime: timeBefore + max(.zero, elapsed - run.startedAt), elapsed: elapsed)
    }
}
