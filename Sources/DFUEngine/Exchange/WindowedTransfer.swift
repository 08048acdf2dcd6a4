import DFUBytes
import DFUGATT
import DFUProfile

/// A chunk loop whose single `send` is pipelined: up to `window` requests in flight, each
/// matched to its answer by the response's `match` conditions (SMP's sequence numbers). As a
/// pure state machine, like `CommandExchange`.
///
/// Each answer is checked (status, `expect`), then the loop's `next` (default: the chunk's
/// end) says where the device wants to continue. When that is not where the next request in
/// flight starts, the requests in flight are abandoned (their answers no longer match) and
/// the upload continues from the device's offset. A timeout resends from the oldest request
/// in flight, up to `attempts` times in a row.
public struct WindowedTransfer {
    public struct Setup {
        public var data: [UInt8]
        public var from: Int
        public var chunkSize: Int
        public var window: Int
        /// The chunk variables' name and the send step.
        public var chunkAlias: String
        public var send: SendStep
        public var command: CommandSpec
        public var next: Expression?
        /// Encodes the request for a scope (with `<chunkAlias>` and `sequence` bound): the
        /// writes that carry it and its named fields.
        public var encode: (Scope) throws(EvaluationError) -> (writes: [[UInt8]], fields: [String: Value])
        public var writeCharacteristic: String
        public var writeType: GATTWriteType
        public var responseFraming: LengthHeaderFormat?
        public var timeout: Duration
        public var attempts: Int
        public var scope: Scope
        public var codeTables: [String: CodeTable]
        /// The first sequence number to use.
        public var sequence: Int
    }

    public enum Action: Equatable {
        case write([UInt8], characteristic: String, type: GATTWriteType)
        case awaitNotification(until: Duration)
        case completed(lastFields: [String: Value])
        case failed(ExchangeFailureBox)
    }

    public typealias Event = LinkEvent

    private struct Request {
        var start: Int
        var end: Int
        var scope: Scope
        var deadline: Duration
    }

    private let setup: Setup
    private var nextOffset: Int
    private var inFlight: [Request] = []
    private var writes: [[UInt8]] = []
    private var notifications: NotificationMessages
    private var timeouts = 0
    private var stalls = 0
    private var index = 0
    private var lastFields: [String: Value] = [:]
    private var ignored: [String] = []
    /// The next sequence number (the driver carries it on to later commands).
    public private(set) var sequence: Int
    /// Bytes the device has acknowledged, from the start of `data`.
    public private(set) var acknowledged: Int
    /// Where the requests resent after the last timeout start.
    public private(set) var resendOffset = 0

    public init(_ setup: Setup) {
        self.setup = setup
        self.nextOffset = setup.from
        self.acknowledged = setup.from
        self.sequence = setup.sequence
        self.notifications = NotificationMessages(framing: setup.responseFraming)
    }

    public mutating func handle(_ event: Event) -> Action {
        switch event {
        case let .begin(now), let .writeAccepted(now):
            return proceed(now: now)
        case let .notification(characteristic, value, now):
            guard characteristic == setup.command.response?.message.characteristic else { return proceed(now: now) }
            return receive(value, now: now)
        case let .deadlinePassed(now):
            timeouts += 1
            guard timeouts < setup.attempts, let oldest = inFlight.first else {
                return .failed(ExchangeFailureBox(.timeout(after: setup.timeout, attempts: timeouts, ignored: ignored)))
            }
            // Send again from the oldest unanswered request.
            inFlight.removeAll()
            writes.removeAll()
            notifications.reset()
            nextOffset = oldest.start
            resendOffset = oldest.start
            return proceed(now: now)
        }
    }

    /// Queues requests while the window has room, then writes or waits.
    private mutating func proceed(now: Duration) -> Action {
        if writes.isEmpty {
            while inFlight.count < setup.window, nextOffset < setup.data.count {
                let end = min(nextOffset + setup.chunkSize, setup.data.count)
                var scope = setup.scope
                scope[setup.chunkAlias] = .record([
                    "offset": .integer(UInt64(nextOffset)), "from": .integer(UInt64(nextOffset)),
                    "end": .integer(UInt64(end)), "size": .integer(UInt64(end - nextOffset)),
                    "data": .bytes(Array(setup.data[nextOffset..<end])), "index": .integer(UInt64(index)),
                    "first": .boolean(index == 0), "last": .boolean(end == setup.data.count),
                ])
                scope["sequence"] = .integer(UInt64(sequence & 0xFF))
                let encoded: (writes: [[UInt8]], fields: [String: Value])
                do {
                    encoded = try setup.encode(scope)
                } catch {
                    return .failed(ExchangeFailureBox(.evaluation(error)))
                }
                scope["request"] = .record(encoded.fields)
                sequence += 1
                index += 1
                writes += encoded.writes
                inFlight.append(Request(start: nextOffset, end: end, scope: scope, deadline: now + setup.timeout))
                nextOffset = end
            }
        }
        if !writes.isEmpty {
            return .write(writes.removeFirst(), characteristic: setup.writeCharacteristic, type: setup.writeType)
        }
        guard let first = inFlight.first else { return .completed(lastFields: lastFields) }
        return .awaitNotification(until: first.deadline)
    }

    private mutating func receive(_ value: [UInt8], now: Duration) -> Action {
        guard let response = setup.command.response else { return proceed(now: now) }
        var messages: [[UInt8]] = []
        switch notifications.append(value) {
        case let .success(complete): messages = complete
        case let .failure(garbage): remember(garbage.note)
        }
        for message in messages {
            do {
                guard let (position, fields) = try match(message, response: response) else { continue }
                if let failure = DeviceStatus.failure(in: fields, specs: response.allStatuses, tables: setup.codeTables) {
                    return .failed(ExchangeFailureBox(.deviceStatus(failure)))
                }
                let request = inFlight.remove(at: position)
                var scope = request.scope
                scope[setup.send.alias] = .record(fields)
                for condition in setup.send.expect where !(try ExpressionEvaluator.condition(condition, in: scope)) {
                    return .failed(ExchangeFailureBox(.expectationFailed(
                        expression: condition.text, location: condition.location,
                        values: "answer to the chunk at offset \(request.start)")))
                }
                lastFields = fields
                timeouts = 0
                let wanted = try setup.next.map { (next) throws(EvaluationError) in
                    Int(min(try ExpressionEvaluator.integer(next, in: scope), UInt64(setup.data.count)))
                } ?? request.end
                if wanted == request.end {
                    acknowledged = max(acknowledged, request.end)
                    stalls = 0
                } else {
                    // The device wants another offset: abandon what is in flight, go on from there.
                    stalls = wanted > request.start ? 0 : stalls + 1
                    guard stalls < 3 else {
                        return .failed(ExchangeFailureBox(.expectationFailed(
                            expression: setup.next?.text ?? "next", location: setup.next?.location ?? setup.send.expect.first?.location ?? setup.command.location,
                            values: "the device asked for offset \(wanted) three times without progress")))
                    }
                    inFlight.removeAll()
                    writes.removeAll()
                    nextOffset = wanted
                    acknowledged = wanted
                }
            } catch {
                return .failed(ExchangeFailureBox(.evaluation(error)))
            }
        }
        return proceed(now: now)
    }

    /// The in-flight request this message answers, and its fields.
    private mutating func match(_ message: [UInt8], response: ResponseSpec) throws(EvaluationError) -> (Int, [String: Value])? {
        for (position, request) in inFlight.enumerated() {
            guard case let .matched(fields) = try MessageDecoder.decode(message, as: response.message, in: request.scope,
                                                                       status: response.status) else { continue }
            var scope = request.scope
            scope["response"] = .record(fields)
            var matches = true
            for condition in response.match where !(try ExpressionEvaluator.condition(condition, in: scope)) {
                matches = false
                break
            }
            if matches { return (position, fields) }
        }
        remember("\(message.prefix(16).hexString) (answers no request in flight)")
        return nil
    }

    private mutating func remember(_ note: String) {
        if ignored.count < 5 { ignored.append(note) }
    }
}
