import DFUBytes
import DFUGATT
import DFUProfile

/// A chunk loop whose single `send` is pipelined: up to `window` requests in flight, each
/// matched to its answer by the response's `match` conditions (SMP's sequence numbers). A pure
/// state machine (`LinkMachine`) over the same `ChunkCursor` as the sequential loop.
///
/// Each answer is checked (status, `expect`), then the loop's `next` (default: the chunk's
/// end) says where the device wants to continue. When that is not where the next request in
/// flight starts, the requests in flight are abandoned (their answers no longer match) and
/// the upload continues from the device's offset. A timeout resends from the oldest request
/// in flight, up to `attempts` times in a row.
package struct WindowedTransfer: LinkMachine {
    package struct Setup {
        package var data: [UInt8]
        package var from: Int
        package var chunkSize: Int
        package var aligned: Bool
        package var window: Int
        /// The chunk variables' name and the send step.
        package var chunkAlias: String
        package var send: SendStep
        package var command: CommandSpec
        package var next: Expression?
        /// Encodes the request for a scope (with `<chunkAlias>` and `sequence` bound): the
        /// writes that carry it and its named fields.
        package var encode: (Scope) throws(EvaluationError) -> (writes: [[UInt8]], fields: [String: Value])
        package var target: WriteTarget
        package var responseHandle: UInt16?
        package var responseFraming: LengthHeaderFormat?
        package var timeout: Duration
        package var attempts: Int
        package var scope: Scope
        package var codeTables: [String: CodeTable]
        /// The first sequence number to use.
        package var sequence: Int

        package init(data: [UInt8], from: Int, chunkSize: Int, aligned: Bool, window: Int, chunkAlias: String,
                    send: SendStep, command: CommandSpec, next: Expression?,
                    encode: @escaping (Scope) throws(EvaluationError) -> (writes: [[UInt8]], fields: [String: Value]),
                    target: WriteTarget, responseHandle: UInt16?, responseFraming: LengthHeaderFormat?,
                    timeout: Duration, attempts: Int, scope: Scope, codeTables: [String: CodeTable], sequence: Int) {
            self.data = data
            self.from = from
            self.chunkSize = chunkSize
            self.aligned = aligned
            self.window = window
            self.chunkAlias = chunkAlias
            self.send = send
            self.command = command
            self.next = next
            self.encode = encode
            self.target = target
            self.responseHandle = responseHandle
            self.responseFraming = responseFraming
            self.timeout = timeout
            self.attempts = attempts
            self.scope = scope
            self.codeTables = codeTables
            self.sequence = sequence
        }
    }

    /// The fields of the last answer.
    package typealias Action = LinkAction<[String: Value]>

    private struct Request {
        var chunk: ChunkCursor.Chunk
        var scope: Scope
        var deadline: Duration
    }

    private let setup: Setup
    private var cursor: ChunkCursor
    package var resumedAt: Int? { cursor.resumedAt }
    private var inFlight: [Request] = []
    /// Writes of queued requests not yet made.
    private var writes: [[UInt8]] = []
    private var notifications: NotificationMessages
    private var timeoutsInARow = 0
    /// The answer to the chunk that ends furthest: what the loop completes with (answers may
    /// arrive out of order).
    private var lastFields: [String: Value] = [:]
    private var lastEnd = -1
    private var ignored = IgnoredMessages()
    private var finished = false
    /// The next sequence number (the driver carries it on to later commands).
    package private(set) var sequence: Int
    /// Bytes the device has acknowledged, from the start of `data`.
    package private(set) var acknowledged: Int
    package private(set) var resends = 0
    /// Where the requests resent after the last timeout start.
    package private(set) var resendOffset = 0

    package init(_ setup: Setup) {
        self.setup = setup
        self.cursor = ChunkCursor(count: setup.data.count, from: setup.from, size: setup.chunkSize,
                                  aligned: setup.aligned)
        self.acknowledged = min(setup.from, setup.data.count)
        self.sequence = setup.sequence
        self.notifications = NotificationMessages(framing: setup.responseFraming)
    }

    package var transferred: Int? { acknowledged }

    package var resendDescription: String {
        "no answer to '\(setup.send.command)' within \(setup.timeout.secondsText); sending again from offset \(resendOffset)"
    }

    package mutating func handle(_ event: LinkEvent) -> Action {
        guard !finished else { return fail(.evaluation(internalError("\(event) after the end"))) }
        switch event {
        case let .begin(now), let .writeAccepted(now):
            return proceed(now: now)
        case let .notification(handle, value, now):
            guard handle == setup.responseHandle else { return proceed(now: now) }
            return receive(value, now: now)
        case let .deadlinePassed(now):
            timeoutsInARow += 1
            guard timeoutsInARow < setup.attempts, let oldest = inFlight.first else {
                return fail(.timeout(after: setup.timeout, attempts: timeoutsInARow, ignored: ignored.notes))
            }
            // Send again from the oldest unanswered request.
            inFlight.removeAll()
            writes.removeAll()
            notifications.reset()
            cursor.rewind(to: oldest.chunk.from)
            resendOffset = oldest.chunk.from
            resends += 1
            return proceed(now: now)
        }
    }

    /// Queues requests while the window has room, then writes or waits.
    private mutating func proceed(now: Duration) -> Action {
        if writes.isEmpty {
            while inFlight.count < setup.window, !cursor.isFinished {
                let chunk = cursor.next()
                var scope = setup.scope
                scope[setup.chunkAlias] = ChunkCursor.record(chunk, of: setup.data)
                scope["sequence"] = .integer(UInt64(sequence & 0xFF))
                let encoded: (writes: [[UInt8]], fields: [String: Value])
                do {
                    encoded = try setup.encode(scope)
                } catch {
                    return fail(.evaluation(error))
                }
                scope["request"] = .record(encoded.fields)
                sequence += 1
                writes += encoded.writes
                inFlight.append(Request(chunk: chunk, scope: scope, deadline: now + setup.timeout))
            }
        }
        if !writes.isEmpty {
            return .write(writes.removeFirst(), to: setup.target)
        }
        guard let first = inFlight.first else {
            finished = true
            return .completed(lastFields)
        }
        return .awaitNotification(until: first.deadline)
    }

    private mutating func receive(_ value: [UInt8], now: Duration) -> Action {
        guard let response = setup.command.response else { return proceed(now: now) }
        let received = notifications.append(value)
        for note in received.garbage { ignored.remember(note) }
        for message in received.messages {
            do {
                guard let (position, fields) = try match(message, response: response) else { continue }
                if let failure = DeviceStatus.failure(in: fields, specs: response.allStatuses, tables: setup.codeTables) {
                    return fail(.deviceStatus(failure))
                }
                let request = inFlight.remove(at: position)
                var scope = request.scope
                scope[setup.send.alias] = .record(fields)
                for condition in setup.send.expect where !(try ExpressionEvaluator.condition(condition, in: scope)) {
                    return fail(.expectationFailed(expression: condition.text, location: condition.location,
                                                   values: "answer to the chunk at offset \(request.chunk.from)"))
                }
                if request.chunk.end >= lastEnd {
                    lastFields = fields
                    lastEnd = request.chunk.end
                }
                timeoutsInARow = 0
                let wanted = try setup.next.map { (next) throws(EvaluationError) in
                    Int(min(try ExpressionEvaluator.integer(next, in: scope), UInt64(setup.data.count)))
                } ?? request.chunk.end
                do {
                    try cursor.answered(request.chunk, wants: wanted)
                } catch {
                    return fail(.expectationFailed(
                        expression: setup.next?.text ?? "next",
                        location: setup.next?.location ?? setup.command.location,
                        values: "the device asked for offset \(error.wanted) three times without progress"))
                }
                if wanted == request.chunk.end {
                    acknowledged = max(acknowledged, wanted)
                } else {
                    // The device wants another offset: abandon what is in flight, go on from there.
                    inFlight.removeAll()
                    writes.removeAll()
                    acknowledged = wanted
                    lastFields = fields
                    lastEnd = wanted
                }
            } catch {
                return fail(.evaluation(error))
            }
        }
        return proceed(now: now)
    }

    /// The in-flight request this message answers, and its fields.
    private mutating func match(_ message: [UInt8], response: ResponseSpec) throws(EvaluationError) -> (Int, [String: Value])? {
        for (position, request) in inFlight.enumerated() {
            if case let .matched(fields) = try ResponseMatcher.match(message, response: response, scope: request.scope) {
                return (position, fields)
            }
        }
        ignored.remember("\(message.prefix(16).hexString) (answers no request in flight)")
        return nil
    }

    private mutating func fail(_ failure: ExchangeFailure) -> Action {
        finished = true
        return .failed(failure)
    }

    private func internalError(_ message: String) -> EvaluationError {
        EvaluationError(expression: setup.send.command, location: setup.command.location, message: "internal error: \(message)")
    }
}
