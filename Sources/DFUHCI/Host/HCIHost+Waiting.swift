/// Someone waiting for an event matching `match`; an event that arrives before the wait starts
/// is kept.
struct EventWaiter {
    let match: @Sendable (HCIEvent) -> Bool
    var result: Result<HCIEvent, HCIError>?
    var continuation: CheckedContinuation<Result<HCIEvent, HCIError>, Never>?
    var timeoutTask: Task<Void, Never>?
}

struct ScanWaiter {
    let match: @Sendable (HCIAdvertisement) -> Bool
    let continuation: CheckedContinuation<HCIAdvertisement?, Never>
    var timeoutTask: Task<Void, Never>?
}

extension HCIHost {
    /// Starts watching for an event before the command that causes it is sent.
    func expectEvent(_ match: @escaping @Sendable (HCIEvent) -> Bool) -> UInt64 {
        let id = makeIdentifier()
        eventWaiters[id] = EventWaiter(match: match)
        if let closedError { eventWaiters[id]?.result = .failure(closedError) }
        return id
    }

    func cancelExpectation(_ id: UInt64) {
        eventWaiters[id]?.timeoutTask?.cancel()
        eventWaiters[id] = nil
    }

    /// Waits for the event expected under `id`, at most `timeout`. A `cancellable` wait (a
    /// connection being made: seconds) also ends, with `timeoutError`, when the calling task is
    /// cancelled; other waits (an event a command just caused) run to their event or timeout, so
    /// that cleaning up after a cancellation still sees what the controller did.
    func waitForEvent(_ id: UInt64, timeout: Duration, timeoutError: HCIError,
                      cancellable: Bool = false) async throws(HCIError) -> HCIEvent {
        guard let waiter = eventWaiters[id] else { throw timeoutError }
        if let result = waiter.result {
            eventWaiters[id] = nil
            return try result.get()
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<HCIEvent, HCIError>, Never>) in
                eventWaiters[id]?.continuation = continuation
                if cancellable, Task.isCancelled {
                    failEventWaiter(id, timeoutError)
                    return
                }
                eventWaiters[id]?.timeoutTask = Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    guard !Task.isCancelled else { return }
                    await self?.failEventWaiter(id, timeoutError)
                }
            }
        } onCancel: {
            if cancellable { Task { await self.failEventWaiter(id, timeoutError) } }
        }
        return try result.get()
    }

    func failEventWaiter(_ id: UInt64, _ error: HCIError) {
        finishEventWaiter(id, .failure(error))
    }

    private func finishEventWaiter(_ id: UInt64, _ result: Result<HCIEvent, HCIError>) {
        guard var waiter = eventWaiters[id], waiter.result == nil else { return }
        if let continuation = waiter.continuation {
            waiter.timeoutTask?.cancel()
            eventWaiters[id] = nil
            continuation.resume(returning: result)
        } else {
            waiter.result = result
            eventWaiters[id] = waiter
        }
    }

    func deliverToWaiters(_ event: HCIEvent) {
        for (id, waiter) in eventWaiters where waiter.result == nil && waiter.match(event) {
            finishEventWaiter(id, .success(event))
        }
    }
}
