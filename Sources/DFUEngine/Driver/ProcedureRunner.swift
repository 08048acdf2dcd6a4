import DFUBytes
import DFUGATT
import DFUProfile

/// Runs a profile's procedure once, for one image, over the session's current link: it
/// performs what `ProcedureMachine` asks for, driving a `CommandExchange` for each command or
/// awaited notification and a `StreamTransfer` for each stream. Throws `LinkLost` when the link
/// drops (the session may resume) and wraps every other failure as a `FlashError`.
final class ProcedureRunner {
    private let session: FlashSession
    private let image: FlashImage
    private let index: Int
    private let count: Int
    private var profile: Profile { session.profile }
    /// Link time when the action being performed began.
    private var actionStartedAt: Duration = .zero

    init(session: FlashSession, image: FlashImage, index: Int, count: Int) {
        self.session = session
        self.image = image
        self.index = index
        self.count = count
    }

    func run() async throws(LinkLost) -> Bool {
        var machine = ProcedureMachine(procedure: profile.procedure, scope: try baseScope())
        var action = machine.start()
        var reported = -1
        while true {
            if Task.isCancelled {
                throw LinkLost(fatal: FlashError(
                    kind: .cancelled, message: "cancelled before the update finished; the device keeps what it received",
                    address: session.address?.description, image: image.name, offset: machine.completedOffset,
                    hint: "run the same command again: the profile resumes where the device stopped"))
            }
            let outcome: ProcedureMachine.Outcome
            actionStartedAt = session.link?.now ?? actionStartedAt
            switch action {
            case .finished:
                session.retries += machine.retryCount
                session.finalScope = machine.scope
                return machine.verified
            case let .failed(failure):
                session.retries += machine.retryCount
                throw LinkLost(fatal: flashError(failure))
            case let .send(step, location):
                outcome = try await send(step, location: location, scope: machine.scope)
            case let .await(step, location):
                outcome = try await awaitNotification(step, location: location, scope: machine.scope)
            case let .stream(step, location):
                outcome = try await stream(step, location: location, scope: machine.scope)
            case let .windowed(loop, location):
                outcome = try await windowed(loop, location: location, scope: machine.scope)
            case let .reconnect(step):
                try await session.reconnect(step)
                machine.rebind(try linkRecords())
                outcome = .reconnected
            case let .wait(duration):
                let link = try currentLink()
                do { try await link.sleep(until: link.now + duration) } catch {
                    throw LinkLost(error, step: "wait", location: nil)
                }
                outcome = .waited
            }
            action = machine.resume(outcome)
            if let done = machine.completedOffset, done != reported {
                reported = done
                reportProgress(done)
            }
        }
    }

    // MARK: - Scope

    private func baseScope() throws(LinkLost) -> Scope {
        var scope = Scope(["image": image.record(index: index, count: count),
                           "param": session.options.parameterRecord(for: profile)])
        for (name, value) in try linkRecords() { scope[name] = value }
        return scope
    }

    /// `link` and `present`, which change when a `reconnect` step lands on another device.
    private func linkRecords() throws(LinkLost) -> [String: Value] {
        guard let link = session.link, let bindings = session.bindings else { throw LinkLost(detail: "not connected") }
        return ["link": .record(["mtu": .integer(UInt64(link.mtu))]), "present": bindings.presentRecord(profile)]
    }

    private func currentLink() throws(LinkLost) -> any GATTLink {
        guard let link = session.link else { throw LinkLost(detail: "not connected") }
        return link
    }

    private func characteristic(_ name: String, location: SourceLocation) throws(LinkLost) -> GATTCharacteristic {
        guard let bindings = session.bindings else { throw LinkLost(detail: "not connected") }
        do {
            return try bindings.require(name)
        } catch {
            var error = error
            error.image = image.name
            error.location = error.location ?? location
            throw LinkLost(fatal: error)
        }
    }

    // MARK: - Steps

    private func send(_ step: SendStep, location: SourceLocation, scope: Scope) async throws(LinkLost) -> ProcedureMachine.Outcome {
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
    private func awaitNotification(_ step: AwaitStep, location: SourceLocation, scope: Scope) async throws(LinkLost) -> ProcedureMachine.Outcome {
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

    private func exchange(_ setup: CommandExchange.Setup, what: String, step: String, location: SourceLocation,
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

    private func stream(_ step: StreamStep, location: SourceLocation, scope: Scope) async throws(LinkLost) -> ProcedureMachine.Outcome {
        guard let spec = profile.characteristic(named: step.to) else {
            throw LinkLost(fatal: FlashError(kind: .profile, message: "no characteristic '\(step.to)'", location: location))
        }
        let link = try currentLink()
        let target = try characteristic(step.to, location: location)
        let setup: StreamTransfer.Setup
        do {
            let data = try ExpressionEvaluator.bytes(step.data, in: scope)
            let from = try step.from.map { (expression) throws(EvaluationError) in try ExpressionEvaluator.integer(expression, in: scope) } ?? 0
            let every = try step.receipts.map { (receipts) throws(EvaluationError) in try ExpressionEvaluator.integer(receipts.every, in: scope) } ?? 0
            setup = StreamTransfer.Setup(
                data: data, from: Int(min(from, UInt64(data.count))), segmentSize: segmentSize(spec, mtu: link.mtu),
                characteristic: spec.name,
                writeType: writeType(spec.name, default: step.writeType ?? spec.writeType),
                receiptEvery: Int(min(every, 65_535)),
                receipt: step.receipts.flatMap { profile.notifications[$0.notification] },
                receiptAlias: step.receipts?.alias ?? "receipt", expect: step.receipts?.expect ?? [],
                timeout: step.receipts?.timeout ?? profile.defaults.timeout, scope: scope)
        } catch {
            return .failed(.evaluation(error))
        }
        var transfer = StreamTransfer(setup)
        var action = transfer.handle(.begin(now: link.now))
        do {
            while true {
                switch action {
                case let .write(bytes, _, type):
                    try await link.write(bytes, to: target, type: type)
                    action = transfer.handle(.writeAccepted(now: link.now))
                    if step.reportsProgress { reportProgress(transfer.position) }
                case let .awaitNotification(deadline):
                    action = transfer.handle(try await nextEvent(link, until: deadline))
                case let .completed(receipt):
                    return .streamed(lastReceipt: receipt)
                case let .failed(box):
                    return .failed(box.failure)
                }
            }
        } catch {
            throw LinkLost(error, step: "stream to '\(step.to)'", location: location)
        }
    }

    /// A chunk loop with a window: its single `send` pipelined by a `WindowedTransfer`.
    private func windowed(_ loop: ChunkLoop, location: SourceLocation, scope: Scope) async throws(LinkLost) -> ProcedureMachine.Outcome {
        guard case let .send(send)? = loop.steps.first?.kind, let command = profile.commands[send.command],
              let spec = profile.characteristic(named: command.request.characteristic) else {
            throw LinkLost(fatal: FlashError(kind: .profile, message: "a windowed loop needs one usable send", location: location))
        }
        let link = try currentLink()
        let target = try characteristic(spec.name, location: location)
        let setup: WindowedTransfer.Setup
        do throws(EvaluationError) {
            let data = try ExpressionEvaluator.bytes(loop.data, in: scope)
            let from = try loop.from.map { (expression) throws(EvaluationError) in try ExpressionEvaluator.integer(expression, in: scope) } ?? 0
            let size = try ExpressionEvaluator.integer(loop.size, in: scope)
            let window = try loop.window.map { (expression) throws(EvaluationError) in try ExpressionEvaluator.integer(expression, in: scope) } ?? 1
            guard size > 0 else {
                throw EvaluationError(expression: loop.size.text, location: loop.size.location, message: "the chunk size is 0")
            }
            let segment = segmentSize(spec, mtu: link.mtu)
            let encode: (Scope) throws(EvaluationError) -> (writes: [[UInt8]], fields: [String: Value]) = { [self] chunkScope throws(EvaluationError) in
                let (bytes, fields) = try MessageEncoder.encode(command.request, in: chunkScope)
                do {
                    return (Segmenter.segments(of: try frame(bytes, for: spec), maximumSize: segment), fields)
                } catch {
                    throw EvaluationError(expression: send.command, location: location, message: "cannot frame the request: \(error)")
                }
            }
            setup = WindowedTransfer.Setup(
                data: data, from: Int(min(from, UInt64(data.count))), chunkSize: Int(min(size, 1 << 24)),
                window: Int(max(1, min(window, 255))), chunkAlias: loop.alias, send: send, command: command,
                next: loop.next, encode: encode, writeCharacteristic: spec.name,
                writeType: writeType(spec.name, default: spec.writeType),
                responseFraming: command.response.flatMap { framing(of: $0.message.characteristic) },
                timeout: send.timeout ?? command.timeout ?? profile.defaults.timeout,
                attempts: 1 + (send.retries ?? max(profile.defaults.retries, 2)), scope: scope,
                codeTables: profile.codeTables, sequence: session.sequence)
        } catch {
            return .failed(.evaluation(error))
        }
        var transfer = WindowedTransfer(setup)
        var action = transfer.handle(.begin(now: link.now))
        var reported = transfer.acknowledged
        do {
            while true {
                switch action {
                case let .write(bytes, _, type):
                    try await link.write(bytes, to: target, type: type)
                    action = transfer.handle(.writeAccepted(now: link.now))
                case let .awaitNotification(deadline):
                    action = transfer.handle(try await nextEvent(link, until: deadline))
                case let .completed(lastFields):
                    session.sequence = transfer.sequence
                    return .windowed(lastFields: lastFields)
                case let .failed(box):
                    session.sequence = transfer.sequence
                    return .failed(box.failure)
                }
                if loop.reportsProgress, transfer.acknowledged != reported {
                    reported = transfer.acknowledged
                    reportProgress(reported)
                }
            }
        } catch {
            session.sequence = transfer.sequence
            throw LinkLost(error, step: "send '\(send.command)'", location: location)
        }
    }

    // MARK: - Helpers

    /// Records and announces how much of the image the device holds. The transfer phase runs
    /// from the start of the first step that moved image data to the last progress.
    private func reportProgress(_ done: Int) {
        session.imageProgress = done
        if session.transferStartedAt == nil { session.transferStartedAt = actionStartedAt }
        session.transferEndedAt = session.link?.now
        session.onEvent(.progress(image: image.name, done: done, total: image.data.count, elapsed: session.elapsed))
    }

    /// The next notification before `deadline`, or the deadline passing, as a machine event.
    private func nextEvent(_ link: any GATTLink, until deadline: Duration) async throws(GATTError) -> LinkEvent {
        if let notification = try await link.nextNotification(until: deadline) {
            return .notification(characteristic: roleName(notification.valueHandle), value: notification.value, now: link.now)
        }
        return .deadlinePassed(now: link.now)
    }

    private func roleName(_ handle: UInt16) -> String {
        session.bindings?.name(forHandle: handle) ?? ""
    }

    private func writeType(_ role: String, default type: CharacteristicSpec.WriteType) -> GATTWriteType {
        session.options.writeTypes[role] ?? GATTWriteType(type)
    }

    private func framing(of role: String) -> LengthHeaderFormat? {
        profile.characteristic(named: role)?.framing.flatMap { profile.framings[$0]?.format }
    }

    private func frame(_ message: [UInt8], for spec: CharacteristicSpec) throws -> [UInt8] {
        guard let format = framing(of: spec.name) else { return message }
        return format.isLengthOnly ? try format.frame(payload: message) : try format.seal(frame: message)
    }

    private func segmentSize(_ spec: CharacteristicSpec, mtu: Int) -> Int {
        let attPayload = Segmenter.attPayloadSize(mtu: mtu)
        switch spec.segmentSize {
        case .mtu: return attPayload
        case let .fixed(size): return max(1, min(size, attPayload))
        }
    }

    private func flashError(_ failure: ProcedureFailure) -> FlashError {
        let addressText = session.address?.description
        switch failure.failure {
        case let .deviceStatus(status):
            return FlashError(kind: .device, message: "\(failure.step) failed: the device answered \(status)",
                              address: addressText, image: image.name, offset: failure.chunkOffset, location: failure.location)
        case let .timeout(after, attempts, ignored):
            var message = "\(failure.step): no matching answer within \(after) (\(attempts) attempt(s))"
            if !ignored.isEmpty { message += "; ignored: " + ignored.joined(separator: "; ") }
            return FlashError(kind: .timeout, message: message, address: addressText, image: image.name,
                              offset: failure.chunkOffset, location: failure.location,
                              hint: "the device may be busy erasing flash (raise the step's timeout) or no longer in DFU mode")
        case let .expectationFailed(expression, location, values):
            return FlashError(kind: .device, message: "\(failure.step): expected \(expression) (\(values))",
                              address: addressText, image: image.name, offset: failure.chunkOffset, location: location)
        case let .evaluation(error):
            return FlashError(kind: .profile, message: error.description, address: addressText, image: image.name,
                              location: error.location)
        }
    }
}
