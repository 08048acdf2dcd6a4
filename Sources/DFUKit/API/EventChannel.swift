import Synchronization

/// The buffer between the task that runs an operation and the task that iterates its events.
/// Unlike `AsyncThrowingStream`, a cancelled consumer does not end the sequence at once: it
/// cancels the producer and still receives the producer's last word (the outcome, or a
/// `.cancelled` error that says what the device holds).
final class EventChannel<Element: Sendable>: Sendable {
    private struct State {
        var buffer: [Element] = []
        /// How the producer ended (nil error: normally), once it has.
        var end: DFUKitError??
        var endDelivered = false
        var waiter: CheckedContinuation<Result<Element?, DFUKitError>, Never>?
    }

    private let state = Mutex(State())

    /// Queues `element` for the consumer (or hands it to the one waiting).
    func send(_ element: Element) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<Element?, DFUKitError>, Never>? in
            guard state.end == nil else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.buffer.append(element)
            return nil
        }
        waiter?.resume(returning: .success(element))
    }

    /// Ends the sequence after what is queued: normally, or with `error`.
    func finish(throwing error: DFUKitError? = nil) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<Element?, DFUKitError>, Never>? in
            guard state.end == nil else { return nil }
            state.end = .some(error)
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            state.endDelivered = true
            return waiter
        }
        waiter?.resume(returning: error.map { .failure($0) } ?? .success(nil))
    }

    /// The next element; nil once the producer finished; throws the producer's error once.
    func next() async throws(DFUKitError) -> Element? {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Element?, DFUKitError>, Never>) in
            let ready = state.withLock { state -> Result<Element?, DFUKitError>? in
                if !state.buffer.isEmpty { return .success(state.buffer.removeFirst()) }
                if let end = state.end {
                    if state.endDelivered { return .success(nil) }
                    state.endDelivered = true
                    return end.map { .failure($0) } ?? .success(nil)
                }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
        return try result.get()
    }
}
