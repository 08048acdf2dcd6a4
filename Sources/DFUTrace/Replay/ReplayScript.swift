import DFUBytes
import DFUCapture
import DFUGATT
import DFUProfile

/// A captured device, as a pure state machine: DFUKit's operations come in, the captured
/// device's answers go out, as long as DFUKit does what the captured client did. No I/O and no
/// clock: `ReplayTransport` drives it.
///
/// `strict` (sim:replay) wants the same bytes in the same writes; `tolerant` (`profile verify
/// --against`) compares whole messages field by field and lets through what legitimately varies
/// (`FieldDifference.Variance`), recording it.
struct ReplayScript {
    enum Strictness: Sendable { case strict, tolerant }

    /// What the device does in answer to one of DFUKit's operations.
    struct Answer {
        /// Notifications and indications to deliver, with their delay after DFUKit's operation.
        var notifications: [(after: Duration, value: GATTNotification)] = []
        /// The write or read is refused with this ATT error.
        var refusal: (code: UInt8, handle: UInt16)?
        /// What a read returns.
        var readValue: [UInt8]?
        /// The device drops the link this long after DFUKit's operation.
        var disconnectAfter: Duration?
    }

    /// One captured connection in progress.
    struct OpenConnection {
        var index: Int
        var steps: CapturedClientSteps
        var next = 0
        var streams: [UInt16: MessageStream] = [:]
        /// Captured subscriptions DFUKit made already (taken in any order).
        var subscribed: Set<Int> = []
        var values: [UInt16: [(value: [UInt8], withResponse: Bool)]] = [:]
        /// The sequence number DFUKit used in its last request where the capture used another,
        /// and where the answer carries it back.
        var sequenceSwap: SequenceSwap?
    }

    enum State {
        case waiting(nextConnection: Int)
        case connected(OpenConnection)
        case diverged(ReplayDivergence)
    }

    let session: CapturedSession
    let profile: Profile?
    let strictness: Strictness
    private(set) var state: State = .waiting(nextConnection: 0)
    /// Differences let through (tolerant only), in order.
    private(set) var tolerated: [FieldDifference] = []
    /// What the replay noticed without stopping (a subscription the capture did not make...).
    private(set) var notes: [String] = []
    /// The image DFUKit sends is the one the captured client sent: image-derived fields must match.
    var sameImage = true

    init(session: CapturedSession, profile: Profile?, strictness: Strictness) {
        self.session = session
        self.profile = profile
        self.strictness = strictness
    }

    var divergence: ReplayDivergence? {
        if case let .diverged(divergence) = state { return divergence }
        return nil
    }

    /// The captured connection DFUKit opens next, or why it cannot.
    mutating func connect() -> Result<CapturedConnection, ReplayDivergence> {
        if case let .diverged(divergence) = state { return .failure(divergence) }
        let index: Int
        switch state {
        case let .waiting(next): index = next
        case let .connected(open): index = open.index + 1
        case .diverged: return .failure(divergence!)
        }
        guard index < session.connections.count else {
            return .failure(diverge(connection: index, step: 0,
                                    "DFUKit connected again, but the capture holds \(session.connections.count) connection(s)"))
        }
        let connection = session.connections[index]
        guard connection.services != nil else {
            return .failure(diverge(connection: index, step: 0,
                                    "the capture's connection \(index + 1) has no GATT discovery (the client used its cache), "
                                    + "so its handles cannot be named; capture a session that discovers services "
                                    + "(clear the phone's Bluetooth cache or capture the first connection after pairing)"))
        }
        state = .connected(OpenConnection(index: index, steps: CapturedClientSteps(connection) { handle in
            self.framing(connection: connection, handle: handle)
        }))
        return .success(connection)
    }

    /// What the device does on connecting (notifications it sent before the client did anything).
    func opening() -> Answer {
        guard case let .connected(open) = state else { return Answer() }
        return answer(open.steps.opening, after: nil, connection: session.connections[open.index], refusal: nil)
    }

    /// DFUKit wrote `value` to `handle`.
    mutating func write(_ value: [UInt8], to handle: UInt16, withResponse: Bool) -> Result<Answer, ReplayDivergence> {
        guard case var .connected(open) = state else { return .failure(divergenceOrClosed()) }
        let connection = session.connections[open.index]
        var stream = open.streams[handle] ?? MessageStream(framing: framing(connection: connection, handle: handle))
        open.values[handle, default: []].append((value, withResponse))
        let messages = (try? stream.append(value).get()) ?? [(message: value, values: 1)]
        open.streams[handle] = stream
        var answer = Answer()
        for (message, _) in messages {
            let values = open.values[handle] ?? []
            open.values[handle] = []
            skipSubscriptions(&open)
            guard open.next < open.steps.steps.count else {
                return .failure(diverge(connection: open.index, step: open.next + 1, ending(connection, doing:
                    "DFUKit wrote \(describe(message, to: handle, connection))")))
            }
            let step = open.steps.steps[open.next]
            guard case let .message(capturedHandle, capturedBytes, capturedValues) = step.kind, capturedHandle == handle else {
                return .failure(diverge(connection: open.index, step: open.next + 1,
                                        "DFUKit wrote \(describe(message, to: handle, connection)) where the capture's client "
                                        + describe(step.kind, connection)))
            }
            if let failure = compare(message, values: values, with: capturedBytes, capturedValues, handle: handle,
                                     connection: connection, open: &open) {
                return .failure(failure)
            }
            open.next += 1
            answer = self.answer(step.answers, after: step.time, connection: connection, refusal: step.refusal, open: open)
        }
        state = .connected(open)
        return .success(answer)
    }

    /// DFUKit read `handle`.
    mutating func read(_ handle: UInt16) -> Result<Answer, ReplayDivergence> {
        guard case var .connected(open) = state else { return .failure(divergenceOrClosed()) }
        let connection = session.connections[open.index]
        skipSubscriptions(&open)
        guard open.next < open.steps.steps.count else {
            return .failure(diverge(connection: open.index, step: open.next + 1,
                                    ending(connection, doing: "DFUKit read \(name(of: handle, connection))")))
        }
        let step = open.steps.steps[open.next]
        guard case let .read(capturedHandle) = step.kind, capturedHandle == handle else {
            return .failure(diverge(connection: open.index, step: open.next + 1, "DFUKit read \(name(of: handle, connection)) "
                                    + "where the capture's client " + describe(step.kind, connection)))
        }
        open.next += 1
        var answer = self.answer(step.answers, after: step.time, connection: connection, refusal: step.refusal, open: open)
        answer.readValue = step.readValue ?? []
        state = .connected(open)
        return .success(answer)
    }

    /// DFUKit switched updates on `handle` on or off. The capture's subscriptions are taken in
    /// any order: clients differ in when they subscribe, not in what the device then does.
    mutating func subscribe(_ handle: UInt16, enabled: Bool) -> Result<Void, ReplayDivergence> {
        guard case var .connected(open) = state else { return .failure(divergenceOrClosed()) }
        let connection = session.connections[open.index]
        let found = open.steps.steps.indices.dropFirst(open.next).first { index in
            guard !open.subscribed.contains(index),
                  case let .subscribe(valueHandle, configuration) = open.steps.steps[index].kind else { return false }
            return valueHandle == handle && (configuration != 0) == enabled
        }
        if let found {
            open.subscribed.insert(found)
        } else if enabled {
            notes.append("DFUKit subscribed to \(name(of: handle, connection)), which the capture's client did not do on "
                         + "connection \(open.index + 1)")
        }
        state = .connected(open)
        return .success(())
    }

    /// DFUKit closed the link.
    mutating func disconnect() {
        guard case var .connected(open) = state else { return }
        skipSubscriptions(&open)
        if open.next < open.steps.steps.count {
            notes.append("DFUKit closed connection \(open.index + 1) where the capture's client went on: it "
                         + describe(open.steps.steps[open.next].kind, session.connections[open.index]))
        }
        state = .waiting(nextConnection: open.index + 1)
    }

    /// The device dropped the link (as captured): DFUKit may connect to the next connection.
    mutating func deviceDisconnected() {
        guard case let .connected(open) = state else { return }
        state = .waiting(nextConnection: open.index + 1)
    }

    /// What the captured client did that DFUKit did not, once DFUKit is done: nil when the
    /// replay consumed every step of every connection.
    func unfinished() -> String? {
        switch state {
        case .diverged: return nil
        case let .connected(open):
            var rest = open
            var copy = self
            copy.skipSubscriptions(&rest)
            if rest.next < rest.steps.steps.count {
                return "on connection \(rest.index + 1) the capture's client went on: it "
                    + describe(rest.steps.steps[rest.next].kind, session.connections[rest.index])
            }
            return rest.index + 1 < session.connections.count
                ? "the capture holds \(session.connections.count - rest.index - 1) more connection(s) DFUKit did not open" : nil
        case let .waiting(next):
            return next < session.connections.count
                ? "the capture holds \(session.connections.count - next) more connection(s) DFUKit did not open" : nil
        }
    }

    // MARK: - What moves the state (kept in this file: `state` and `tolerated` are set here only)

    /// Stops the replay at `step` of `connection` (0-based) with `summary`.
    mutating func diverge(connection: Int, step: Int, _ summary: String,
                          fields: [FieldDifference] = []) -> ReplayDivergence {
        let divergence = ReplayDivergence(connection: connection + 1, step: step, summary: summary, fields: fields)
        state = .diverged(divergence)
        return divergence
    }

    func divergenceOrClosed() -> ReplayDivergence {
        divergence ?? ReplayDivergence(connection: 0, step: 0, summary: "DFUKit used a link the replay had closed")
    }

    /// Lets `differences` through as legitimate.
    mutating func tolerate(_ differences: [FieldDifference]) {
        tolerated += differences
    }
}
