import DFUBytes
import DFUGATT
import DFUProfile

/// One command sent and its response awaited, as a pure state machine: the driver performs
/// each `Action` on a link and feeds back what happened as an `Event`.
///
/// The request is already framed and cut into writes. Writes go one at a time (a write with
/// response completes when acknowledged). Notifications are reassembled by the response
/// characteristic's framing; each complete message is decoded against the response layout,
/// matched (constant fields and `match` conditions), then its status is checked. Messages that
/// do not match are ignored but remembered for the timeout error. On timeout the whole request
/// is sent again while attempts remain.
public struct CommandExchange {
    public struct Setup {
        public var command: CommandSpec
        public var writes: [[UInt8]]
        public var writeCharacteristic: String
        public var writeType: GATTWriteType
        /// Framing of the response characteristic; nil when one notification is one message.
        public var responseFraming: LengthHeaderFormat?
        public var timeout: Duration
        public var attempts: Int
        /// The procedure's scope plus `request` (the request's named fields).
        public var scope: Scope
        public var codeTables: [String: CodeTable]
    }

    public enum Action: Equatable {
        case write([UInt8], characteristic: String, type: GATTWriteType)
        case awaitNotification(until: Duration)
        case completed([String: Value])
        case failed(ExchangeFailureBox)
    }

    public typealias Event = LinkEvent

    private let setup: Setup
    private var attempt = 0
    private var nextWrite = 0
    private var deadline: Duration = .zero
    private var notifications: NotificationMessages
    private var ignored: [String] = []
    private var finished = false

    public init(_ setup: Setup) {
        self.setup = setup
        self.notifications = NotificationMessages(framing: setup.responseFraming)
    }

    public mutating func handle(_ event: Event) -> Action {
        guard !finished else { return .failed(ExchangeFailureBox(.evaluation(internalError("event after the end")))) }
        switch event {
        case let .begin(now):
            attempt = 1
            return startAttempt(now: now)
        case let .writeAccepted(now):
            if nextWrite < setup.writes.count { return writeNext() }
            guard setup.command.response != nil else { return finish(.completed([:])) }
            deadline = now + setup.timeout
            return .awaitNotification(until: deadline)
        case let .notification(characteristic, value, now):
            return receive(characteristic: characteristic, value: value, now: now)
        case let .deadlinePassed(now):
            guard attempt < setup.attempts else {
                return finish(.failed(ExchangeFailureBox(.timeout(after: setup.timeout, attempts: attempt, ignored: ignored))))
            }
            attempt += 1
            return startAttempt(now: now)
        }
    }

    private mutating func startAttempt(now: Duration) -> Action {
        nextWrite = 0
        notifications.reset()
        if setup.writes.isEmpty {
            return handle(.writeAccepted(now: now))
        }
        return writeNext()
    }

    private mutating func writeNext() -> Action {
        let bytes = setup.writes[nextWrite]
        nextWrite += 1
        return .write(bytes, characteristic: setup.writeCharacteristic, type: setup.writeType)
    }

    private mutating func receive(characteristic: String, value: [UInt8], now: Duration) -> Action {
        guard let response = setup.command.response, nextWrite >= setup.writes.count,
              characteristic == response.message.characteristic else {
            return .awaitNotification(until: deadline)
        }
        var messages: [[UInt8]] = []
        switch notifications.append(value) {
        case let .success(complete): messages = complete
        case let .failure(garbage): remember(garbage.note)
        }
        for message in messages {
            do {
                if let fields = try match(message, response: response) {
                    if let failure = DeviceStatus.failure(in: fields, specs: response.allStatuses,
                                                          tables: setup.codeTables) {
                        return finish(.failed(ExchangeFailureBox(.deviceStatus(failure))))
                    }
                    return finish(.completed(fields))
                }
            } catch {
                return finish(.failed(ExchangeFailureBox(.evaluation(error))))
            }
        }
        return .awaitNotification(until: deadline)
    }

    private mutating func match(_ message: [UInt8], response: ResponseSpec) throws(EvaluationError) -> [String: Value]? {
        switch try MessageDecoder.decode(message, as: response.message, in: setup.scope, status: response.status) {
        case let .mismatched(reason):
            remember("\(message.prefix(16).hexString) (\(reason))")
            return nil
        case let .matched(fields):
            var scope = setup.scope
            scope["response"] = .record(fields)
            for condition in response.match where !(try ExpressionEvaluator.condition(condition, in: scope)) {
                remember("\(message.prefix(16).hexString) (fails match '\(condition.text)')")
                return nil
            }
            return fields
        }
    }

    private mutating func remember(_ note: String) {
        if ignored.count < 5 { ignored.append(note) }
    }

    private mutating func finish(_ action: Action) -> Action {
        finished = true
        return action
    }

    private func internalError(_ message: String) -> EvaluationError {
        EvaluationError(expression: setup.command.name, location: setup.command.location, message: message)
    }
}

/// `ExchangeFailure` in an `Equatable` wrapper, so actions can be compared in tests.
public struct ExchangeFailureBox: Equatable, Sendable {
    public var failure: ExchangeFailure
    public init(_ failure: ExchangeFailure) { self.failure = failure }
    public static func == (lhs: ExchangeFailureBox, rhs: ExchangeFailureBox) -> Bool {
        String(describing: lhs.failure) == String(describing: rhs.failure)
    }
}
