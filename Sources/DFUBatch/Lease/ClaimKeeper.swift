import Synchronization

/// One claim while the runner holds it: its `LeaseGate`, and the attempt running under it, which
/// is cancelled the moment the claim is lost (a heartbeat answered "lost", or the lease ran out
/// before one was confirmed).
final class ClaimKeeper: Sendable {
    private struct State {
        var lost: String?
        var cancelAttempt: (@Sendable () -> Void)?
    }

    let gate: LeaseGate
    private let state = Mutex(State())

    init(gate: LeaseGate) {
        self.gate = gate
    }

    /// Why the claim was lost, once it was (also when the gate shut itself: a write found the
    /// deadline passed before the lease watcher did).
    var lostReason: String? { gate.revokedReason ?? state.withLock { $0.lost } }

    /// The claim is gone: shut the gate, cancel the running attempt.
    func lose(_ reason: String) {
        gate.revoke(reason)
        let cancel = state.withLock { state -> (@Sendable () -> Void)? in
            guard state.lost == nil else { return nil }
            state.lost = reason
            return state.cancelAttempt
        }
        cancel?()
    }

    /// Cancels the running attempt, keeping the claim (the line's timeout ran out).
    func cancelAttempt() {
        let cancel = state.withLock { $0.cancelAttempt }
        cancel?()
    }

    /// Runs `body` as the claim's current attempt: it is cancelled when the claim is lost, or
    /// when the calling task is cancelled.
    func runAttempt<T: Sendable>(_ body: sending @escaping @isolated(any) () async -> T) async -> T {
        let task = Task(operation: body)
        let lostAlready = state.withLock { state -> Bool in
            state.cancelAttempt = { task.cancel() }
            return state.lost != nil
        }
        if lostAlready { task.cancel() }
        let value = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        state.withLock { $0.cancelAttempt = nil }
        return value
    }
}
