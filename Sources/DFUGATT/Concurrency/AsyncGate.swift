import Synchronization

/// One holder at a time, waiters served in arrival order: what a transport puts around scans
/// and connection attempts (an adapter or controller makes one connection at a time), and what
/// the HCI host puts around its commands (one outstanding command).
///
/// A waiting task keeps its place when it is cancelled and still gets its turn: a cancelled
/// task often needs one to clean up (cancel a connection attempt, disconnect). The holder hands
/// the turn on when it releases it, whether its operation returned, threw or was cancelled.
public final class AsyncGate: Sendable {
    private enum State {
        /// Nobody holds the turn (and so nobody waits).
        case free
        /// One task holds the turn; these wait for it, oldest first.
        case held(waiting: [CheckedContinuation<Void, Never>])
    }

    private let state = Mutex(State.free)

    /// A gate nobody holds.
    public init() {}

    /// Runs `operation` once every operation that arrived before it has finished, and returns
    /// its result (or rethrows its error).
    public func serialized<Value, Failure: Error>(
        _ operation: () async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        await acquire()
        defer { release() }
        return try await operation()
    }

    /// Waits for the turn (at once when nobody holds it). Every `acquire` needs one `release`.
    package func acquire() async {
        let granted = state.withLock { state -> Bool in
            guard case .free = state else { return false }
            state = .held(waiting: [])
            return true
        }
        guard !granted else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let grantedMeanwhile = state.withLock { state -> Bool in
                switch state {
                case .free:
                    state = .held(waiting: [])
                    return true
                case var .held(waiting):
                    waiting.append(continuation)
                    state = .held(waiting: waiting)
                    return false
                }
            }
            if grantedMeanwhile { continuation.resume() }
        }
    }

    /// Hands the turn to the oldest waiter, or frees the gate.
    package func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard case var .held(waiting) = state else {
                preconditionFailure("AsyncGate.release() without acquire()")
            }
            guard !waiting.isEmpty else {
                state = .free
                return nil
            }
            let next = waiting.removeFirst()
            state = .held(waiting: waiting)
            return next
        }
        next?.resume()
    }

    /// Whether a task holds the turn.
    package var isHeld: Bool {
        state.withLock { state in
            if case .held = state { return true }
            return false
        }
    }

    /// Tasks waiting for the turn.
    package var waitingCount: Int {
        state.withLock { state in
            if case let .held(waiting) = state { return waiting.count }
            return 0
        }
    }
}
