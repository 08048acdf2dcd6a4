import DFUGATT

extension HCIHost {
    /// Starts watching for an event before the command that causes it is sent.
    func expectEvent(_ match: @escaping @Sendable (HCIEvent) -> Bool) -> UInt64 {
        let id = makeIdentifier()
        runEventWaits(.expected(id, match: match))
        return id
    }

    func cancelExpectation(_ id: UInt64) {
        runEventWaits(.expectationCancelled(id))
    }

    /// Waits for the event expected under `id`, at most `timeout`. A `cancellable` wait (a
    /// connection being made: seconds) also ends, with `timeoutError`, when the calling task is
    /// cancelled; other waits (an event a command just caused) run to their event or timeout, so
    /// that cleaning up after a cancellation still sees what the controller did.
    func waitForEvent(_ id: UInt64, timeout: Duration, timeoutError: HCIError,
                      cancellable: Bool = false) async throws(HCIError) -> HCIEvent {
        let outcome = AsyncBuffer<Result<HCIEvent, HCIError>, Never>()
        eventWaitOutcomes[id] = outcome
        runEventWaits(.waitStarted(id, timeout: timeout, timeoutError: timeoutError))
        if cancellable {
            switch await outcome.next(until: nil) {
            case let .element(result):
                return try result.get()
            case .end:
                throw closedError ?? timeoutError
            case .gaveUp:
                // The machine settles it: the event if it came meanwhile, else `timeoutError`.
                runEventWaits(.waitCancelled(id))
            }
        }
        guard let result = await outcome.next() else { throw closedError ?? timeoutError }
        return try result.get()
    }

    /// Feeds one event to the event wait machine and runs its actions (none suspends).
    func runEventWaits(_ event: EventWaitEvent) {
        for action in eventWaits.handle(event) {
            switch action {
            case let .startTimer(id, duration):
                eventWaitTimers.start(id, after: duration) { [weak self] in await self?.eventWaitTimerFired(id) }
            case let .cancelTimer(id):
                eventWaitTimers.cancel(id)
            case let .complete(id, result):
                eventWaitOutcomes.removeValue(forKey: id)?.send(result)
            }
        }
    }

    private func eventWaitTimerFired(_ id: UInt64) {
        guard eventWaitTimers.fired(id) else { return }
        runEventWaits(.timerFired(id))
    }
}
