import DFUBytes
import DFUGATT
import DFUProfile

/// Raw streams (`StreamTransfer`) and windowed chunk loops (`WindowedTransfer`).
extension ProcedureRunner {
    func stream(_ step: StreamStep, location: SourceLocation, scope: Scope) async throws(RunInterruption) -> ProcedureMachine.Outcome {
        let target = try bound(step.to, location: location)
        var receiptHandle: UInt16?
        if let receipts = step.receipts, let notification = profile.notifications[receipts.notification] {
            receiptHandle = try bound(notification.characteristic, location: location).target.characteristic.valueHandle
        }
        let setup: StreamTransfer.Setup
        do throws(EvaluationError) {
            let data = try ExpressionEvaluator.bytes(step.data, in: scope)
            let from = try step.from.map { (expression) throws(EvaluationError) in try ExpressionEvaluator.integer(expression, in: scope) } ?? 0
            let every = try step.receipts.map { (receipts) throws(EvaluationError) in try ExpressionEvaluator.integer(receipts.every, in: scope) } ?? 0
            var writeTarget = target.target
            if let type = step.writeType, session.options.writeTypes[step.to] == nil { writeTarget.type = GATTWriteType(type) }
            var segmentSize = target.segmentSize
            if let segment = step.segment {
                let size = try ExpressionEvaluator.integer(segment, in: scope)
                guard size > 0 else {
                    throw EvaluationError(expression: segment.text, location: segment.location, message: "the segment size is 0")
                }
                segmentSize = Int(min(UInt64(segmentSize), size))
            }
            setup = StreamTransfer.Setup(
                data: data, from: Int(min(from, UInt64(data.count))),
                segmentSize: segmentSize,
                target: writeTarget, receiptEvery: Int(min(every, 65_535)),
                receipt: step.receipts.flatMap { profile.notifications[$0.notification] }, receiptHandle: receiptHandle,
                receiptAlias: step.receipts?.alias ?? "receipt", expect: step.receipts?.expect ?? [],
                timeout: step.receipts?.timeout ?? profile.defaults.timeout, scope: scope)
        } catch {
            return .failed(.evaluation(error))
        }
        var transfer = StreamTransfer(setup)
        switch try await drive(&transfer, step: "stream to '\(step.to)'", location: location,
                               reportsProgress: step.reportsProgress) {
        case let .success(receipt): return .streamed(lastReceipt: receipt)
        case let .failure(failure): return .failed(failure)
        }
    }

    /// A chunk loop with a window: its single `send` pipelined by a `WindowedTransfer`.
    func windowed(_ loop: ChunkLoop, location: SourceLocation, scope: Scope) async throws(RunInterruption) -> ProcedureMachine.Outcome {
        guard case let .send(send)? = loop.steps.first?.kind, let command = profile.commands[send.command] else {
            throw .failed(FlashError(kind: .profile, message: "a windowed loop needs one usable send", location: location))
        }
        let request = try bound(command.request.characteristic, location: location)
        let response = try command.response.map { (response) throws(RunInterruption) in
            try bound(response.message.characteristic, location: location)
        }
        let setup: WindowedTransfer.Setup
        do throws(EvaluationError) {
            let data = try ExpressionEvaluator.bytes(loop.data, in: scope)
            let from = try loop.from.map { (expression) throws(EvaluationError) in try ExpressionEvaluator.integer(expression, in: scope) } ?? 0
            let size = try ExpressionEvaluator.integer(loop.size, in: scope)
            let window = try loop.window.map { (expression) throws(EvaluationError) in try ExpressionEvaluator.integer(expression, in: scope) } ?? 1
            guard size > 0 else {
                throw EvaluationError(expression: loop.size.text, location: loop.size.location, message: "the chunk size is 0")
            }
            let encode: (Scope) throws(EvaluationError) -> (writes: [[UInt8]], fields: [String: Value]) = { [self] chunkScope throws(EvaluationError) in
                let (bytes, fields) = try MessageEncoder.encode(command.request, in: chunkScope)
                return (try frame(bytes, for: request, command: send.command, location: location), fields)
            }
            setup = WindowedTransfer.Setup(
                data: data, from: Int(min(from, UInt64(data.count))), chunkSize: Int(min(size, 1 << 24)),
                aligned: loop.aligned, window: Int(max(1, min(window, 255))), chunkAlias: loop.alias, send: send,
                command: command, next: loop.next, encode: encode, target: request.target,
                responseHandle: response?.target.characteristic.valueHandle, responseFraming: response?.framing,
                timeout: send.timeout ?? command.timeout ?? profile.defaults.timeout,
                attempts: 1 + (send.retries ?? profile.defaults.retries), scope: scope,
                codeTables: profile.codeTables, sequence: statistics.sequence)
        } catch {
            return .failed(.evaluation(error))
        }
        var transfer = WindowedTransfer(setup)
        defer { statistics.sequence = transfer.sequence }
        switch try await drive(&transfer, step: "send '\(send.command)'", location: location,
                               reportsProgress: loop.reportsProgress) {
        case let .success(lastFields): return .windowed(lastFields: lastFields)
        case let .failure(failure): return .failed(failure)
        }
    }
}
