import DFUBytes
import DFUGATT
import DFUProfile

/// Commands and awaited notifications: each a `CommandExchange` run by `LinkDriver`.
extension ProcedureRunner {
    func send(_ step: SendStep, location: SourceLocation, scope: Scope) async throws(RunInterruption) -> ProcedureMachine.Outcome {
        guard let command = profile.commands[step.command] else {
            throw .failed(FlashError(kind: .profile, message: "no command '\(step.command)'", location: location))
        }
        let request = try bound(command.request.characteristic, location: location)
        let response = try command.response.map { (response) throws(RunInterruption) in
            try bound(response.message.characteristic, location: location)
        }
        var scope = scope
        scope["sequence"] = .integer(UInt64(statistics.sequence & 0xFF))
        statistics.sequence += 1
        let setup: CommandExchange.Setup
        let reboot: PendingReboot?
        do throws(EvaluationError) {
            reboot = try pendingReboot(step.reboots ?? command.reboots, command: step.command, scope: scope)
            let (bytes, requestFields) = try MessageEncoder.encode(command.request, in: scope)
            let writes = try frame(bytes, for: request, command: step.command, location: location)
            var exchangeScope = scope
            exchangeScope["request"] = .record(requestFields)
            setup = CommandExchange.Setup(
                command: command, writes: writes, target: request.target,
                responseHandle: response?.target.characteristic.valueHandle, responseFraming: response?.framing,
                timeout: step.timeout ?? command.timeout ?? profile.defaults.timeout,
                attempts: 1 + (step.retries ?? profile.defaults.retries), scope: exchangeScope,
                codeTables: profile.codeTables)
        } catch {
            return .failed(.evaluation(error))
        }
        var exchange = CommandExchange(setup)
        switch try await drive(&exchange, step: "send '\(step.command)'", location: location, reboot: reboot,
                               attErrorsAsStatus: step.optional) {
        case let .success(fields): return .sent(fields: fields)
        case let .failure(failure): return .failed(failure)
        }
    }

    /// An `await` step: waits for its notification, or the first of several.
    func awaitNotification(_ step: AwaitStep, location: SourceLocation, scope: Scope) async throws(RunInterruption) -> ProcedureMachine.Outcome {
        var candidates: [NotificationWait.Candidate] = []
        for name in step.notifications {
            guard let notification = profile.notifications[name] else {
                throw .failed(FlashError(kind: .profile, message: "no notification '\(name)'", location: location))
            }
            let source = try bound(notification.characteristic, location: location)
            candidates.append(NotificationWait.Candidate(name: name, message: notification,
                                                         handle: source.target.characteristic.valueHandle,
                                                         framing: source.framing))
        }
        var wait = NotificationWait(NotificationWait.Setup(
            candidates: candidates, timeout: step.timeout ?? profile.defaults.timeout, scope: scope,
            codeTables: profile.codeTables))
        let what = step.notifications.map { "'\($0)'" }.joined(separator: " or ")
        switch try await drive(&wait, step: "await \(what)", location: location) {
        case let .success(arrived): return .received(name: arrived.name, fields: arrived.fields)
        case let .failure(failure): return .failed(failure)
        }
    }

    /// A `read` step: the characteristic's value.
    func read(_ step: ReadStep, location: SourceLocation) async throws(RunInterruption) -> ProcedureMachine.Outcome {
        let link = try currentLink()
        let source = try bound(step.characteristic, location: location)
        if Task.isCancelled { throw .cancelled }
        do {
            let value = try await link.read(source.target.characteristic)
            session.deviceAnswered = true
            return .read(value: value)
        } catch {
            throw interruption(error, step: "read '\(step.characteristic)'", location: location)
        }
    }

    /// The writes that carry `message` on `characteristic`: framed (the length inserted into it or
    /// laid over its placeholder, the trailer appended), then cut into segments.
    func frame(_ message: [UInt8], for characteristic: ConnectionBindings.Bound, command: String,
               location: SourceLocation) throws(EvaluationError) -> [[UInt8]] {
        var framed = message
        if let format = characteristic.framing {
            do {
                framed = try format.frame(message: message)
            } catch {
                throw EvaluationError(expression: command, location: location, message: "cannot frame the request: \(error)")
            }
        }
        return Segmenter.segments(of: framed, maximumSize: characteristic.segmentSize)
    }

    /// The reboot a command announces, if its `reboots` holds in this scope.
    func pendingReboot(_ spec: RebootSpec?, command: String, scope: Scope) throws(EvaluationError) -> PendingReboot? {
        guard let spec else { return nil }
        if let when = spec.when, !(try ExpressionEvaluator.condition(when, in: scope)) { return nil }
        return PendingReboot(command: command, timing: spec.timing(over: profile.reboot), comesBackAt: spec.address,
                             sentAt: .zero)
    }
}
