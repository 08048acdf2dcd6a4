import DFUBytes
import DFUGATT
import DFUProfile

/// Raw streams (`StreamTransfer`) and windowed chunk loops (`WindowedTransfer`).
extension ProcedureRunner {
    func stream(_ step: StreamStep, location: SourceLocation, scope: Scope) async throws(LinkLost) -> ProcedureMachine.Outcome {
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
    func windowed(_ loop: ChunkLoop, location: SourceLocation, scope: Scope) async throws(LinkLost) -> ProcedureMachine.Outcome {
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
                    let event = try await nextEvent(link, until: deadline)
                    action = transfer.handle(event)
                    if case .deadlinePassed = event, case .write = action {
                        // Said, so a device that stopped answering is not minutes of silence.
                        session.retries += 1
                        session.onEvent(.retrying("no answer to '\(send.command)' within \(setup.timeout.secondsText); "
                                                  + "sending again from offset \(transfer.resendOffset)"))
                    }
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
}
