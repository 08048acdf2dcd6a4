/// Callers waiting for HCI events, as a pure state machine: a caller states what it expects
/// before it causes the event (`.expected`), then waits at most a timeout (`.waitStarted`). An
/// event matching several expectations goes to each of them; one that comes before the wait
/// starts is kept for it. Events in, actions out; `HCIHost` drives it (`expectEvent`,
/// `waitForEvent`), with a timer per wait and an `AsyncBuffer` per waiting caller.
///
/// Expectations are served in the order they were made. Once the host is closed, every wait,
/// even one not yet expected, fails with the host's error; late events and timers are ignored.
package struct EventWaitMachine: Sendable {
    /// Names one wait; chosen by the driver, unique per host.
    package typealias ID = UInt64

    /// One expectation and how far it got.
    struct Expectation: Sendable {
        enum Phase: Sendable {
            /// Watching for its event; nobody waits yet.
            case watching
            /// Its event (or the host's failure) came before anybody waited.
            case settled(Result<HCIEvent, HCIError>)
            /// A caller waits; its timer runs; it fails with `timeoutError` when that runs out.
            case waiting(timeoutError: HCIError)
        }

        let id: ID
        let match: @Sendable (HCIEvent) -> Bool
        var phase: Phase
    }

    enum State: Sendable {
        /// The host runs; these expectations are open, oldest first.
        case open([Expectation])
        /// The host is gone: every wait fails with the error.
        case closed(HCIError)
    }

    private(set) var state = State.open([])

    package init() {}

    /// Expectations made and not yet over.
    package var pendingCount: Int {
        if case let .open(expectations) = state { return expectations.count }
        return 0
    }

    /// Callers waiting now.
    package var waitingCount: Int {
        guard case let .open(expectations) = state else { return 0 }
        return expectations.filter { if case .waiting = $0.phase { return true } else { return false } }.count
    }

    package mutating func handle(_ event: EventWaitEvent) -> [EventWaitAction] {
        switch state {
        case let .closed(error):
            // Only a new wait needs an answer; everything else is late.
            if case let .waitStarted(id, _, _) = event { return [.complete(id, .failure(error))] }
            return []
        case let .open(expectations):
            if case let .hostClosed(error) = event {
                state = .closed(error)
                return expectations.flatMap { expectation -> [EventWaitAction] in
                    guard case .waiting = expectation.phase else { return [] }
                    return [.cancelTimer(expectation.id), .complete(expectation.id, .failure(error))]
                }
            }
            var expectations = expectations
            state = .open([])
            let actions = handle(event, &expectations)
            state = .open(expectations)
            return actions
        }
    }

    private mutating func handle(_ event: EventWaitEvent, _ expectations: inout [Expectation]) -> [EventWaitAction] {
        switch event {
        case let .expected(id, match):
            expectations.append(Expectation(id: id, match: match, phase: .watching))
            return []
        case let .expectationCancelled(id):
            guard let index = expectations.firstIndex(where: { $0.id == id }) else { return [] }
            let cancelled = expectations.remove(at: index)
            if case .waiting = cancelled.phase { return [.cancelTimer(id)] }
            return []
        case let .waitStarted(id, timeout, timeoutError):
            guard let index = expectations.firstIndex(where: { $0.id == id }) else {
                // Never expected (or already over): nothing will come.
                return [.complete(id, .failure(timeoutError))]
            }
            switch expectations[index].phase {
            case .watching:
                expectations[index].phase = .waiting(timeoutError: timeoutError)
                return [.startTimer(id, after: timeout)]
            case let .settled(result):
                expectations.remove(at: index)
                return [.complete(id, result)]
            case .waiting:
                return []
            }
        case let .eventReceived(received):
            var actions: [EventWaitAction] = []
            var remaining: [Expectation] = []
            for var expectation in expectations {
                switch expectation.phase {
                case .watching where expectation.match(received):
                    expectation.phase = .settled(.success(received))
                    remaining.append(expectation)
                case .waiting where expectation.match(received):
                    actions += [.cancelTimer(expectation.id), .complete(expectation.id, .success(received))]
                default:
                    remaining.append(expectation)
                }
            }
            expectations = remaining
            return actions
        case let .timerFired(id):
            guard let index = expectations.firstIndex(where: { $0.id == id }),
                  case let .waiting(timeoutError) = expectations[index].phase else { return [] }
            expectations.remove(at: index)
            return [.complete(id, .failure(timeoutError))]
        case let .waitCancelled(id):
            guard let index = expectations.firstIndex(where: { $0.id == id }),
                  case let .waiting(timeoutError) = expectations[index].phase else { return [] }
            expectations.remove(at: index)
            return [.cancelTimer(id), .complete(id, .failure(timeoutError))]
        case .hostClosed:
            return []  // Handled by `handle(_:)`: the state changes.
        }
    }
}
