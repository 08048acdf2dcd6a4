import Synchronization

/// Elements in arrival order between producers that never suspend (a reader thread, an actor
/// handling packets one at a time) and consumers that wait for them, ended once with the reason
/// (normally, or with a `Failure`). The one async channel of the package: PDUs of a link, the
/// events of an operation, the answer to one request (a buffer that receives one element).
///
/// - `send` is synchronous and keeps order; it is refused once the buffer is finished.
/// - `finish(throwing:)` ends it; the first end wins. Elements sent before it are still
///   handed out, then the end: `nil` for a normal end; the failure is thrown once, to the first
///   consumer that reaches it, then every wait returns `nil` (as an `AsyncIteratorProtocol`
///   does). `failure` keeps it for whoever asks later.
/// - `next()` waits for an element or the end whatever happens to the waiting task: a cancelled
///   consumer still receives the producer's last word (an operation's outcome, or the error
///   that says what a cancelled operation left behind), unlike `AsyncThrowingStream`.
/// - `next(until:)` also gives up when its deadline passes or its task is cancelled.
/// - Several consumers may wait at once; they are served in the order they started waiting.
package final class AsyncBuffer<Element: Sendable, Failure: Error>: Sendable {
    /// What a wait that may give up got.
    package enum Receipt: Sendable {
        /// The oldest element.
        case element(Element)
        /// The buffer ended (normally, or its failure was already thrown).
        case end
        /// The deadline passed, or the waiting task was cancelled, before an element came.
        case gaveUp
    }

    /// How a waiting consumer is woken.
    private enum Wake {
        case element(Element)
        /// The end; with the failure for the one consumer that throws it.
        case end(Failure?)
        case gaveUp
    }

    private struct Consumer {
        let id: UInt64
        let continuation: CheckedContinuation<Wake, Never>
        var timer: Task<Void, Never>?
    }

    private enum Phase {
        /// Open; these elements wait for a consumer (perhaps none), and no consumer waits.
        case buffering(FIFOQueue<Element>)
        /// Open; nothing is queued and these consumers wait, oldest first (never empty).
        case awaited([Consumer])
        /// Finished with `end` (nil: normally); these elements are still to hand out (never empty).
        case draining(FIFOQueue<Element>, end: Failure?)
        /// Finished and empty; `failureThrown` once a consumer got the failure.
        case ended(Failure?, failureThrown: Bool)
        /// Only while one lock is held, so that the queue is not copied as it changes.
        case modifying
    }

    private struct State {
        var phase = Phase.buffering(FIFOQueue())
        /// `waitForEnd` callers, told when the buffer is finished.
        var endWaiters: [CheckedContinuation<Failure?, Never>] = []
        var nextConsumerID: UInt64 = 0

        /// Hands out what is ready: the oldest element, or the end; nil when the caller must wait.
        mutating func take() -> Wake? {
            switch phase {
            case var .buffering(elements):
                phase = .modifying
                let element = elements.popFirst()
                phase = .buffering(elements)
                return element.map { .element($0) }
            case .awaited, .modifying:
                return nil
            case .draining(var elements, let end):
                phase = .modifying
                let element = elements.popFirst()
                phase = elements.isEmpty ? .ended(end, failureThrown: false) : .draining(elements, end: end)
                return element.map { .element($0) }
            case let .ended(failure, failureThrown):
                guard let failure, !failureThrown else { return .end(nil) }
                phase = .ended(failure, failureThrown: true)
                return .end(failure)
            }
        }

        /// Adds a consumer; only when `take()` found nothing.
        mutating func enqueue(_ consumer: Consumer) {
            switch phase {
            case .buffering:
                phase = .awaited([consumer])
            case var .awaited(consumers):
                phase = .modifying
                consumers.append(consumer)
                phase = .awaited(consumers)
            case .draining, .ended, .modifying:
                preconditionFailure("a consumer waits on a finished AsyncBuffer")
            }
        }

        /// Removes the consumer `id` if it still waits.
        mutating func remove(_ id: UInt64) -> Consumer? {
            guard case var .awaited(consumers) = phase,
                  let index = consumers.firstIndex(where: { $0.id == id }) else { return nil }
            let consumer = consumers.remove(at: index)
            phase = consumers.isEmpty ? .buffering(FIFOQueue()) : .awaited(consumers)
            return consumer
        }

        var end: Failure?? {
            switch phase {
            case let .draining(_, end), let .ended(end, _): return .some(end)
            case .buffering, .awaited, .modifying: return nil
            }
        }
    }

    private let state = Mutex(State())

    /// An open, empty buffer.
    package init() {}

    /// Hands `element` to the oldest waiting consumer, or queues it. Returns false (and drops
    /// it) once the buffer is finished.
    @discardableResult
    package func send(_ element: Element) -> Bool {
        let (accepted, consumer) = state.withLock { state -> (Bool, Consumer?) in
            switch state.phase {
            case var .buffering(elements):
                state.phase = .modifying
                elements.append(element)
                state.phase = .buffering(elements)
                return (true, nil)
            case var .awaited(consumers):
                let consumer = consumers.removeFirst()
                state.phase = consumers.isEmpty ? .buffering(FIFOQueue()) : .awaited(consumers)
                return (true, consumer)
            case .draining, .ended, .modifying:
                return (false, nil)
            }
        }
        if let consumer {
            consumer.timer?.cancel()
            consumer.continuation.resume(returning: .element(element))
        }
        return accepted
    }

    /// Ends the buffer after what is queued: normally, or with `failure`. Only the first call
    /// counts. Consumers waiting now are woken: the oldest gets the failure, the others the end.
    package func finish(throwing failure: Failure? = nil) {
        let (woken, endWaiters) = state.withLock { state -> ([(Consumer, Wake)], [CheckedContinuation<Failure?, Never>]) in
            var woken: [(Consumer, Wake)] = []
            switch state.phase {
            case let .buffering(elements):
                state.phase = elements.isEmpty ? .ended(failure, failureThrown: false) : .draining(elements, end: failure)
            case let .awaited(consumers):
                state.phase = .ended(failure, failureThrown: failure != nil)
                woken = consumers.enumerated().map { index, consumer in (consumer, .end(index == 0 ? failure : nil)) }
            case .draining, .ended, .modifying:
                return ([], [])
            }
            defer { state.endWaiters = [] }
            return (woken, state.endWaiters)
        }
        for (consumer, wake) in woken {
            consumer.timer?.cancel()
            consumer.continuation.resume(returning: wake)
        }
        for waiter in endWaiters { waiter.resume(returning: failure) }
    }

    /// The oldest element; nil once the buffer ended. Throws the failure it ended with, once.
    /// Waits through the calling task's cancellation.
    package func next() async throws(Failure) -> Element? {
        switch try await wait(until: nil, cancellable: false) {
        case let .element(element): return element
        case .end, .gaveUp: return nil
        }
    }

    /// The oldest element, or the end (the failure thrown once, as `next()` does), or `.gaveUp`
    /// once `deadline` passed (nil: no deadline) or the calling task is cancelled.
    package func next(until deadline: ContinuousClock.Instant?) async throws(Failure) -> Receipt {
        try await wait(until: deadline, cancellable: true)
    }

    /// Waits until the buffer is finished (at once if it is) and returns its failure, nil when
    /// it ended normally. Does not take any element.
    package func waitForEnd() async -> Failure? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Failure?, Never>) in
            let end = state.withLock { state -> Failure?? in
                if let end = state.end { return end }
                state.endWaiters.append(continuation)
                return nil
            }
            if let end { continuation.resume(returning: end) }
        }
    }

    /// Whether the buffer is finished (elements may still be queued).
    package var isFinished: Bool { state.withLock { $0.end != nil } }

    /// The failure the buffer ended with, once it has.
    package var failure: Failure? { state.withLock { $0.end ?? nil } }

    /// Elements queued and not yet taken.
    package var count: Int {
        state.withLock { state in
            switch state.phase {
            case let .buffering(elements), let .draining(elements, _): return elements.count
            case .awaited, .ended, .modifying: return 0
            }
        }
    }

    /// Consumers waiting for an element.
    package var waitingCount: Int {
        state.withLock { state in
            if case let .awaited(consumers) = state.phase { return consumers.count }
            return 0
        }
    }

    private func wait(until deadline: ContinuousClock.Instant?, cancellable: Bool) async throws(Failure) -> Receipt {
        let id = state.withLock { state -> UInt64 in
            state.nextConsumerID += 1
            return state.nextConsumerID
        }
        let wake = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Wake, Never>) in
                let ready = state.withLock { state -> Wake? in
                    if let ready = state.take() { return ready }
                    if cancellable, Task.isCancelled || deadline.map({ $0 <= .now }) == true { return .gaveUp }
                    state.enqueue(Consumer(id: id, continuation: continuation))
                    return nil
                }
                if let ready {
                    continuation.resume(returning: ready)
                } else if let deadline {
                    startTimer(for: id, at: deadline)
                }
            }
        } onCancel: {
            if cancellable { giveUp(id) }
        }
        switch wake {
        case let .element(element): return .element(element)
        case .end(nil): return .end
        case let .end(failure?): throw failure
        case .gaveUp: return .gaveUp
        }
    }

    /// Gives up the wait `id` at `deadline`; the timer is cancelled when the consumer is woken first.
    private func startTimer(for id: UInt64, at deadline: ContinuousClock.Instant) {
        let timer = Task { [weak self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            guard !Task.isCancelled else { return }
            self?.giveUp(id)
        }
        let waiting = state.withLock { state -> Bool in
            guard case var .awaited(consumers) = state.phase,
                  let index = consumers.firstIndex(where: { $0.id == id }) else { return false }
            consumers[index].timer = timer
            state.phase = .awaited(consumers)
            return true
        }
        if !waiting { timer.cancel() }
    }

    private func giveUp(_ id: UInt64) {
        guard let consumer = state.withLock({ $0.remove(id) }) else { return }
        consumer.timer?.cancel()
        consumer.continuation.resume(returning: .gaveUp)
    }
}

extension AsyncBuffer.Receipt: Equatable where Element: Equatable {}
