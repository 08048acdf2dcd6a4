import DFUGATT

/// The one loop that runs every link-level machine (`CommandExchange`, `StreamTransfer`,
/// `WindowedTransfer`) over a link: it performs each action, feeds back what happened, and
/// tells its observer about writes, resends and progress. Cancellation is checked between
/// actions and after every wait: a wait that cancellation cut short is never read as a
/// timeout or a lost link.
struct LinkDriver {
    /// Why the loop stopped before the machine finished.
    enum Interruption: Error {
        case transport(GATTError)
        case cancelled
        /// The attempt's time bound passed (`attemptDeadline`).
        case attemptDeadlinePassed
    }

    struct Observer {
        /// A write is about to go out.
        var willWrite: () -> Void = {}
        /// The machine sent again after a timeout; what it did.
        var resent: (String) -> Void = { _ in }
        /// The machine's `transferred` changed.
        var progressed: (_ done: Int, _ resumedAt: Int?) -> Void = { _, _ in }
    }

    let link: any GATTLink
    let observer: Observer
    /// Spaces writes to characteristics with a `write-interval`.
    var pacer: WritePacer?
    /// When the whole attempt must end (link time): waits are cut to it, and the loop stops there.
    var attemptDeadline: Duration?
    /// The profile's watched notifications: one that refuses, read while the machine waits,
    /// fails it with the device's status.
    var watch: NotificationWatch?

    /// Runs `machine` to its end: what it completed with, or how it failed.
    func run<Machine: LinkMachine>(_ machine: inout Machine) async throws(Interruption) -> Result<Machine.Output, ExchangeFailure> {
        var action = machine.handle(.begin(now: link.now))
        var resends = machine.resends
        var transferred = machine.transferred
        var watch = self.watch
        // Writes without response return once queued: progress counts what the link carried
        // (where it can tell how many are still queued), and the transfer is over when it
        // carried them all.
        var queuedWrites = false
        var carried = CarriedProgress()
        var lastWriteQueued = false
        while true {
            if Task.isCancelled { throw .cancelled }
            if let attemptDeadline, link.now >= attemptDeadline { throw .attemptDeadlinePassed }
            do {
                switch action {
                case let .write(bytes, target):
                    try await pacer?.wait(before: target, on: link)
                    observer.willWrite()
                    try await link.write(bytes, to: target.characteristic, type: target.type)
                    if target.type == .withoutResponse { queuedWrites = true }
                    if Task.isCancelled { throw Interruption.cancelled }
                    pacer?.wrote(to: target, at: link.now)
                    action = machine.handle(.writeAccepted(now: link.now))
                    lastWriteQueued = target.type == .withoutResponse
                    if lastWriteQueued, let progress = machine.transferred { carried.wrote(progress: progress) }
                case let .awaitNotification(deadline):
                    let notification = try await link.nextNotification(until: attemptDeadline.map { min($0, deadline) } ?? deadline)
                    // A wait cut short by cancellation is not a deadline that passed: feeding it
                    // to the machine would make it resend (and report a retry) on its way out.
                    if Task.isCancelled { throw Interruption.cancelled }
                    lastWriteQueued = false
                    if let notification {
                        if case let .refusal(status)? = watch?.hear(notification.value, from: notification.valueHandle) {
                            return .failure(.deviceStatus(status))
                        }
                        action = machine.handle(.notification(valueHandle: notification.valueHandle,
                                                              value: notification.value, now: link.now))
                    } else if let attemptDeadline, link.now >= attemptDeadline, deadline > attemptDeadline {
                        // The attempt ends before the machine's own deadline: not the device's timeout.
                        throw Interruption.attemptDeadlinePassed
                    } else {
                        action = machine.handle(.deadlinePassed(now: link.now))
                    }
                case let .completed(output):
                    if queuedWrites, let transferred {
                        // The last progress again, once the link carried what was queued: the
                        // transfer's time (and so its rate) ends when its bytes were on air.
                        try await link.writesCarried()
                        if Task.isCancelled { throw Interruption.cancelled }
                        observer.progressed(transferred, machine.resumedAt)
                    }
                    return .success(output)
                case let .failed(failure):
                    return .failure(failure)
                }
            } catch let interruption as Interruption {
                throw interruption
            } catch let error as GATTError {
                // A transport error while cancelled (a wait that gave up) is the cancellation.
                throw Task.isCancelled ? .cancelled : .transport(error)
            } catch {
                // Nothing else is thrown above; an unknown error here can only be a cancellation's.
                throw .cancelled
            }
            if machine.resends != resends {
                resends = machine.resends
                observer.resent(machine.resendDescription)
            }
            if let now = machine.transferred, now != transferred {
                transferred = now
                // After a queued write, only what the link carried (when it can tell).
                if lastWriteQueued, let inFlight = await link.writesInFlight {
                    if let shown = carried.carried(inFlight: inFlight) { observer.progressed(shown, machine.resumedAt) }
                } else {
                    carried.reported(now)
                    observer.progressed(now, machine.resumedAt)
                }
            }
        }
    }
}
