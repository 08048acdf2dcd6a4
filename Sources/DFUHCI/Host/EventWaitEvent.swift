/// What happens to the host's event waits, as `EventWaitMachine` takes it. A wait is named by an
/// ID the host chooses, unique per host.
package enum EventWaitEvent: Sendable {
    /// A caller watches for an event `match` accepts, from now on (normally just before sending
    /// the command that causes it, so that a quick answer is not missed).
    case expected(EventWaitMachine.ID, match: @Sendable (HCIEvent) -> Bool)
    /// The caller no longer wants the event (its command failed).
    case expectationCancelled(EventWaitMachine.ID)
    /// The caller waits for the event, at most `timeout`; then it fails with `timeoutError`.
    case waitStarted(EventWaitMachine.ID, timeout: Duration, timeoutError: HCIError)
    /// An event from the controller.
    case eventReceived(HCIEvent)
    /// The wait's timer ran out before its event came.
    case timerFired(EventWaitMachine.ID)
    /// The waiting task was cancelled during a wait that may end so: it fails as a timeout would.
    case waitCancelled(EventWaitMachine.ID)
    /// The host closed or lost its controller: every wait fails with `error`.
    case hostClosed(HCIError)
}

/// What `EventWaitMachine` asks the host to do, in the order given.
package enum EventWaitAction: Sendable, Hashable {
    /// Report `.timerFired(id)` after `duration`.
    case startTimer(EventWaitMachine.ID, after: Duration)
    case cancelTimer(EventWaitMachine.ID)
    /// The wait is over: the event it matched, or why it failed.
    case complete(EventWaitMachine.ID, Result<HCIEvent, HCIError>)
}
