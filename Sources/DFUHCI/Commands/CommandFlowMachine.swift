import DFUGATT

/// HCI command flow as a pure state machine (Core Vol 4, Part E, 4.4): one command outstanding
/// at a time, in the order callers issued them; a command's answer is the Command Complete or
/// Command Status event with its opcode (other events, and answers to no outstanding command,
/// are not for this machine); a command unanswered `timeout` after it was sent fails, and the
/// next one goes. Events in, actions out; `HCIHost.execute` drives it: the caller writes its own
/// command when granted the turn, so a failed write is its own error.
///
/// A status other than success fails the command with `.commandFailed`; a command that was
/// cancelled by its caller's task is still waited for (milliseconds), so that the controller's
/// command flow stays in step.
package struct CommandFlowMachine: Sendable {
    /// Names one command; chosen by the driver, unique per host.
    package typealias ID = UInt64

    /// A command as the machine knows it.
    package struct Command: Sendable, Hashable {
        package var id: ID
        package var opcode: HCIOpcode
        package var name: String
        package var timeout: Duration
    }

    enum State: Sendable {
        /// No command outstanding, none waiting.
        case idle
        /// `command` has the turn and is being written; no timer runs yet.
        case sending(Command, waiting: FIFOQueue<Command>)
        /// `command` was written; its timer runs until its answer.
        case awaitingAnswer(Command, waiting: FIFOQueue<Command>)
        /// The host is gone: every command fails with the error.
        case closed(HCIError)
    }

    private(set) var state = State.idle

    package init() {}

    /// The command that has the turn, if any.
    package var outstanding: Command? {
        switch state {
        case let .sending(command, _), let .awaitingAnswer(command, _): return command
        case .idle, .closed: return nil
        }
    }

    /// Commands waiting behind the outstanding one.
    package var waitingCount: Int {
        switch state {
        case let .sending(_, waiting), let .awaitingAnswer(_, waiting): return waiting.count
        case .idle, .closed: return 0
        }
    }

    package mutating func handle(_ event: CommandFlowEvent) -> [CommandFlowAction] {
        switch event {
        case let .issued(id, opcode, name, timeout):
            return issue(Command(id: id, opcode: opcode, name: name, timeout: timeout))
        case let .sent(id):
            guard case let .sending(command, waiting) = state, command.id == id else { return [] }
            state = .awaitingAnswer(command, waiting: waiting)
            return [.startTimer(id, after: command.timeout)]
        case let .sendFailed(id, error):
            guard case let .sending(command, waiting) = state, command.id == id else { return [] }
            return [.complete(id, .failure(error))] + next(after: waiting)
        case let .eventReceived(event):
            return answer(event)
        case let .timerFired(id):
            guard case let .awaitingAnswer(command, waiting) = state, command.id == id else { return [] }
            let limit = HCIError(.commandTimeout(command: command.name, opcode: command.opcode),
                                 detail: "within \(command.timeout.secondsText)")
            return [.complete(id, .failure(limit))] + next(after: waiting)
        case let .hostClosed(error):
            return close(error)
        }
    }

    private mutating func issue(_ command: Command) -> [CommandFlowAction] {
        switch state {
        case .idle:
            state = .sending(command, waiting: FIFOQueue())
            return [.grantTurn(command.id)]
        case .sending(let outstanding, var waiting):
            state = .idle
            waiting.append(command)
            state = .sending(outstanding, waiting: waiting)
            return []
        case .awaitingAnswer(let outstanding, var waiting):
            state = .idle
            waiting.append(command)
            state = .awaitingAnswer(outstanding, waiting: waiting)
            return []
        case let .closed(error):
            return [.complete(command.id, .failure(error))]
        }
    }

    /// The answer of the outstanding command, whether or not its write has returned yet.
    private mutating func answer(_ event: HCIEvent) -> [CommandFlowAction] {
        let command: Command
        let waiting: FIFOQueue<Command>
        var actions: [CommandFlowAction] = []
        switch state {
        case let .sending(outstanding, queue):
            (command, waiting) = (outstanding, queue)
        case let .awaitingAnswer(outstanding, queue):
            (command, waiting) = (outstanding, queue)
            actions.append(.cancelTimer(outstanding.id))
        case .idle, .closed:
            return []
        }
        let result: Result<[UInt8], HCIError>
        switch event {
        case let .commandComplete(complete) where complete.opcode == command.opcode:
            let status = complete.status ?? .success
            result = status == .success
                ? .success(complete.parametersAfterStatus)
                : .failure(HCIError(.commandFailed(command: command.name, opcode: command.opcode, status: status)))
        case let .commandStatus(commandStatus) where commandStatus.opcode == command.opcode:
            result = commandStatus.status == .success
                ? .success([])
                : .failure(HCIError(.commandFailed(command: command.name, opcode: command.opcode,
                                                   status: commandStatus.status)))
        default:
            return []
        }
        return actions + [.complete(command.id, result)] + next(after: waiting)
    }

    /// Gives the turn to the oldest waiting command, or goes idle.
    private mutating func next(after waiting: FIFOQueue<Command>) -> [CommandFlowAction] {
        var waiting = waiting
        state = .idle
        guard let command = waiting.popFirst() else { return [] }
        state = .sending(command, waiting: waiting)
        return [.grantTurn(command.id)]
    }

    private mutating func close(_ error: HCIError) -> [CommandFlowAction] {
        var actions: [CommandFlowAction] = []
        var failed: [Command] = []
        switch state {
        case let .sending(command, waiting):
            failed = [command] + waiting.elements
        case let .awaitingAnswer(command, waiting):
            actions.append(.cancelTimer(command.id))
            failed = [command] + waiting.elements
        case .idle:
            break
        case .closed:
            return []
        }
        state = .closed(error)
        return actions + failed.map { .complete($0.id, .failure(error)) }
    }
}
