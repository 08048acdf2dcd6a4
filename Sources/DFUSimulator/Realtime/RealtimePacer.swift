/// Keeps a virtual clock from running ahead of the wall clock: `catchUp()` returns once as
/// much real time passed since the pacer was made as the virtual clock moved, or at once when
/// the task is cancelled (the caller then sees the cancellation itself).
final class RealtimePacer {
    private let wallOrigin = ContinuousClock.now
    private let virtualOrigin: Duration
    private let virtualNow: () -> Duration

    init(virtualNow: @escaping () -> Duration) {
        self.virtualNow = virtualNow
        self.virtualOrigin = virtualNow()
    }

    func catchUp() async {
        let due = wallOrigin.advanced(by: virtualNow() - virtualOrigin)
        guard due > ContinuousClock.now else { return }
        try? await Task.sleep(until: due, clock: .continuous)
    }
}
