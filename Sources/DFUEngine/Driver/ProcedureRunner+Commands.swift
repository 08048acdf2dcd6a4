import DFUBytes
import DFUGATT
import DFUProfile

/// Commands and awaited notifications: each a `CommandExchange` driven over the link.
extension ProcedureRunner {

    func send(_ step: SendStep, location: SourceLocation, scope: Scope) async throws(LinkLost) -> ProcedureMachine.Outcome {
        guard let command = profile.commands[step.command],
              let spec = profile.characteristic(named: command.request.characteristic) else {
            throw LinkLost(fatal: FlashError(kind: .profile, message: "command '\(step.command)' is not usable", location: location))
        }
        let link = try currentLink()
        _ = try characteristic(spec.name, location: location)
        let setup: CommandExchange.Setup
        var scope = scope
        scope["sequence"] = .integer(UInt64(session.sequence & 0xFF))
        session.sequence += 1
        do {
            let (bytes, requestFields) = try MessageEncoder.encode(command.request, in: scope)
            let frame = try frame(bytes, for: spec)
            var exchangeScope = scope
            exchangeScope["request"] = .record(requestFields)
            setup = CommandExchange.Setup(
                command: command, writes: Segmenter.segments(of: frame, maximumSize: segmentSize(spec, mtu: link.mtu)),
                writeCharacteristic: spec.name, writeType: writeType(spec.name, default: spec.writeType),
                responseFraming: command.response.flatMap { framing(of: $0.message.characteristic) },
                timeout: step.timeout ?? command.timeout ?? profile.defaults.timeout,
                attempts: 1 + (step.retries ?? profile.defaults.retries), scope: exchangeScope,
                codeTables: profile.codeTables)
        } catch let error as EvaluationError {
            return .failed(.evaluation(error))
        } catch {
            throw LinkLost(fatal: FlashError(kind: .profile, message: "cannot frame '\(step.command)': \(error)", location: location))
        }
        return try await exchange(setup, what: "'\(step.command)'", step: "send '\(step.command)'", location: location) {
            .sent(fields: $0)
        }
    }

    /// An `await` step: a command with nothing to send whose response is the notification.
    func awaitNotification(_ step: AwaitStep, location: SourceLocation, scope: Scope) async throws(LinkLost) -> ProcedureMachine.Outcome {
        guard let notification = profile.notifications[step.notification] else {
            throw LinkLost(fatal: FlashError(kind: .profile, message: "no notification '\(step.notification)'", location: location))
        }
        _ = try characteristic(notification.characteristic, location: location)
        let waitFor = CommandSpec(
            name: step.notification,
            request: MessageSpec(name: step.notification, characteristic: notification.characteristic, fields: [],
                                 location: location),
            response: ResponseSpec(message: notification, match: [], status: notification.status),
            timeout: step.timeout, location: location)
        let setup = CommandExchange.Setup(
            command: waitFor, writes: [], writeCharacteristic: notification.characteristic, writeType: .withResponse,
            responseFraming: framing(of: notification.characteristic),
            timeout: step.timeout ?? profile.defaults.timeout, attempts: 1, scope: scope, codeTables: profile.codeTables)
        return try await exchange(setup, what: "'\(step.notification)'", step: "await '\(step.notification)'",
                                  location: location) { .received(fields: $0) }
    }

    func exchange(_ setup: CommandExchange.Setup, what: String, step: String, location: SourceLocation,
                          completed: ([String: Value]) -> ProcedureMachine.Outcome) async throws(LinkLost) -> ProcedureMachine.Outcome {
        let link = try currentLink()
        var exchange = CommandExchange(setup)
        var action = exchange.handle(.begin(now: link.now))
        var attempt = 1
        do {
            while true {
                switch action {
                case let .write(bytes, name, type):
                    try await link.write(bytes, to: try characteristic(name, location: location), type: type)
                    action = exchange.handle(.writeAccepted(now: link.now))
                case let .awaitNotification(deadline):
                    if let notification = try await link.nextNotification(until: deadline) {
                        action = exchange.handle(.notification(characteristic: roleName(notification.valueHandle),
                                                               value: notification.value, now: link.now))
                    } else {
                        action = exchange.handle(.deadlinePassed(now: link.now))
                        if case .write = action {
                            attempt += 1
                            session.retries += 1
                            session.onEvent(.retrying("no answer to \(what) within \(setup.timeout); sending it again (attempt \(attempt))"))
                        }
                    }
                case let .completed(fields):
                    return completed(fields)
                case let .failed(box):
                    return .failed(box.failure)
                }
            }
        } catch let error as LinkLost {
            throw error
        } catch let error as GATTError {
            throw LinkLost(error, step: step, location: location)
        } catch {
            throw LinkLost(detail: "\(error)")
        }
    }
}
