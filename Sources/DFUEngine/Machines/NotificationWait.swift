import DFUBytes
import DFUGATT
import DFUProfile

/// Waiting for the first of several notifications the profile declares (an `await` step, and
/// a `serve` loop waiting for the device's next request or its "done"), as a pure state
/// machine (`LinkMachine`). Each candidate's characteristic reassembles its own frames; a
/// message that decodes as a candidate (constant fields hold) is checked against that
/// candidate's status and is the outcome. Nothing is written.
package struct NotificationWait: LinkMachine {
    /// A notification that may end the wait.
    package struct Candidate {
        package var name: String
        package var message: MessageSpec
        /// The value handle it is notified from, and that characteristic's framing.
        package var handle: UInt16
        package var framing: LengthHeaderFormat?

        package init(name: String, message: MessageSpec, handle: UInt16, framing: LengthHeaderFormat?) {
            self.name = name
            self.message = message
            self.handle = handle
            self.framing = framing
        }
    }

    package struct Setup {
        package var candidates: [Candidate]
        package var timeout: Duration
        package var scope: Scope
        package var codeTables: [String: CodeTable]

        package init(candidates: [Candidate], timeout: Duration, scope: Scope, codeTables: [String: CodeTable]) {
            self.candidates = candidates
            self.timeout = timeout
            self.scope = scope
            self.codeTables = codeTables
        }
    }

    /// The candidate that arrived, and its fields.
    package typealias Action = LinkAction<(name: String, fields: [String: Value])>

    private enum State {
        case ready
        case waiting(deadline: Duration)
        case finished
    }

    private let setup: Setup
    private var state = State.ready
    /// One reassembler per characteristic the candidates come from.
    private var messages: [UInt16: NotificationMessages] = [:]
    private var ignored = IgnoredMessages()

    package init(_ setup: Setup) {
        self.setup = setup
        for candidate in setup.candidates where messages[candidate.handle] == nil {
            messages[candidate.handle] = NotificationMessages(framing: candidate.framing)
        }
    }

    package var resends: Int { 0 }
    package var resendDescription: String { "" }

    package mutating func handle(_ event: LinkEvent) -> Action {
        switch (state, event) {
        case let (.ready, .begin(now)):
            let deadline = now + setup.timeout
            state = .waiting(deadline: deadline)
            return .awaitNotification(until: deadline)
        case let (.waiting(deadline), .notification(handle, value, _)):
            return receive(value, from: handle, deadline: deadline)
        case (.waiting, .deadlinePassed):
            return finish(.failed(.timeout(after: setup.timeout, attempts: 1, ignored: ignored.notes)))
        default:
            return finish(.failed(.evaluation(EvaluationError(
                expression: setup.candidates.map(\.name).joined(separator: ", "),
                location: setup.candidates.first?.message.location ?? SourceLocation(file: "await", line: 0, column: 0),
                message: "internal error: \(event) while \(state)"))))
        }
    }

    private mutating func receive(_ value: [UInt8], from handle: UInt16, deadline: Duration) -> Action {
        guard var reassembly = messages[handle] else { return .awaitNotification(until: deadline) }
        let received = reassembly.append(value)
        for note in received.garbage { ignored.remember(note) }
        messages[handle] = reassembly
        for message in received.messages {
            for candidate in setup.candidates where candidate.handle == handle {
                do {
                    switch try MessageDecoder.decode(message, as: candidate.message, in: setup.scope,
                                                     status: candidate.message.status) {
                    case let .mismatched(reason):
                        if setup.candidates.count == 1 { ignored.remember("\(message.prefix(16).hexString) (\(reason))") }
                    case let .matched(fields):
                        if let status = candidate.message.status,
                           let failure = DeviceStatus.failure(in: fields, spec: status, tables: setup.codeTables) {
                            return finish(.failed(.deviceStatus(failure)))
                        }
                        return finish(.completed((candidate.name, fields)))
                    }
                } catch {
                    return finish(.failed(.evaluation(error)))
                }
            }
            if setup.candidates.count > 1 {
                ignored.remember("\(message.prefix(16).hexString) (none of \(setup.candidates.map(\.name).joined(separator: ", ")))")
            }
        }
        return .awaitNotification(until: deadline)
    }

    private mutating func finish(_ action: Action) -> Action {
        state = .finished
        return action
    }
}
