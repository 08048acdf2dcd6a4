import DFUBytes
import DFUGATT
import DFUProfile

/// One command sent and its response awaited, as a pure state machine (`LinkMachine`).
///
/// The request is already framed and cut into writes. Writes go one at a time (a write with
/// response completes when acknowledged). Notifications from the response's characteristic are
/// reassembled by its framing; each complete message is decoded against the response layout,
/// matched (constant fields and `match` conditions), then its status is checked. Messages that
/// do not match are ignored but remembered for the timeout error. On timeout the whole request
/// is sent again while attempts remain. An `await` step is an exchange with nothing to write.
package struct CommandExchange: LinkMachine {
    package struct Setup {
        package var command: CommandSpec
        package var writes: [[UInt8]]
        /// Where the request goes; nil when nothing is written (an `await` step).
        package var target: WriteTarget?
        /// The value handle the response is notified from; nil when nothing answers.
        package var responseHandle: UInt16?
        /// Framing of the response characteristic; nil when one notification is one message.
        package var responseFraming: LengthHeaderFormat?
        package var timeout: Duration
        package var attempts: Int
        /// The procedure's scope plus `request` (the request's named fields).
        package var scope: Scope
        package var codeTables: [String: CodeTable]

        package init(command: CommandSpec, writes: [[UInt8]], target: WriteTarget?, responseHandle: UInt16?,
                    responseFraming: LengthHeaderFormat?, timeout: Duration, attempts: Int, scope: Scope,
                    codeTables: [String: CodeTable]) {
            self.command = command
            self.writes = writes
            self.target = target
            self.responseHandle = responseHandle
            self.responseFraming = responseFraming
            self.timeout = timeout
            self.attempts = attempts
            self.scope = scope
            self.codeTables = codeTables
        }
    }

    package typealias Action = LinkAction<[String: Value]>

    private enum State {
        case ready
        /// Writing the request of `attempt`; `next` is the index of the next write.
        case writing(attempt: Int, next: Int)
        case awaitingAnswer(attempt: Int, deadline: Duration)
        case finished
    }

    private let setup: Setup
    private var state = State.ready
    private var notifications: NotificationMessages
    private var ignored = IgnoredMessages()
    package private(set) var resends = 0

    package init(_ setup: Setup) {
        self.setup = setup
        self.notifications = NotificationMessages(framing: setup.responseFraming)
    }

    package var resendDescription: String {
        "no answer to '\(setup.command.name)' within \(setup.timeout.secondsText); sending it again (attempt \(resends + 1))"
    }

    package mutating func handle(_ event: LinkEvent) -> Action {
        switch (state, event) {
        case let (.ready, .begin(now)):
            return startAttempt(1, now: now)
        case let (.writing(attempt, next), .writeAccepted(now)):
            return write(attempt: attempt, next: next, now: now)
        case let (.awaitingAnswer(_, deadline), .notification(handle, value, _)):
            guard handle == setup.responseHandle else { return .awaitNotification(until: deadline) }
            return receive(value, deadline: deadline)
        case let (.awaitingAnswer(attempt, _), .deadlinePassed(now)):
            guard attempt < setup.attempts else {
                return finish(.failed(.timeout(after: setup.timeout, attempts: attempt, ignored: ignored.notes)))
            }
            resends += 1
            return startAttempt(attempt + 1, now: now)
        default:
            return finish(.failed(.evaluation(EvaluationError(
                expression: setup.command.name, location: setup.command.location,
                message: "internal error: \(event) while \(state)"))))
        }
    }

    private mutating func startAttempt(_ attempt: Int, now: Duration) -> Action {
        notifications.reset()
        return write(attempt: attempt, next: 0, now: now)
    }

    /// The next write of the request, or, once all are out, the wait for the answer.
    private mutating func write(attempt: Int, next: Int, now: Duration) -> Action {
        if next < setup.writes.count, let target = setup.target {
            state = .writing(attempt: attempt, next: next + 1)
            return .write(setup.writes[next], to: target)
        }
        guard setup.command.response != nil else { return finish(.completed([:])) }
        let deadline = now + setup.timeout
        state = .awaitingAnswer(attempt: attempt, deadline: deadline)
        return .awaitNotification(until: deadline)
    }

    private mutating func receive(_ value: [UInt8], deadline: Duration) -> Action {
        guard let response = setup.command.response else { return .awaitNotification(until: deadline) }
        let received = notifications.append(value)
        for note in received.garbage { ignored.remember(note) }
        for message in received.messages {
            do {
                switch try ResponseMatcher.match(message, response: response, scope: setup.scope) {
                case let .mismatched(note):
                    ignored.remember(note)
                case let .matched(fields):
                    if let failure = DeviceStatus.failure(in: fields, specs: response.allStatuses,
                                                          tables: setup.codeTables) {
                        return finish(.failed(.deviceStatus(failure)))
                    }
                    return finish(.completed(fields))
                }
            } catch {
                return finish(.failed(.evaluation(error)))
            }
        }
        return .awaitNotification(until: deadline)
    }

    private mutating func finish(_ action: Action) -> Action {
        state = .finished
        return action
    }
}
