import DFUProfile

/// A failure inside the procedure, with the step it happened at.
public struct ProcedureFailure: Error, Sendable {
    public var failure: ExchangeFailure
    /// What was being done, e.g. "send 'data'".
    public var step: String
    public var location: SourceLocation
    /// The chunk being sent, when inside a chunk loop.
    public var chunkOffset: Int?
}

/// Runs a profile's procedure for one image as a pure state machine: it never performs I/O;
/// it asks the driver to send a command, stream bytes, reconnect or wait, and continues with
/// what the driver reports back.
public struct ProcedureMachine {
    public enum Action {
        case send(SendStep, SourceLocation)
        case stream(StreamStep, SourceLocation)
        case reconnect(ReconnectStep)
        case wait(Duration)
        /// Wait for a notification (no request goes out).
        case await(AwaitStep, SourceLocation)
        /// A chunk loop with a window: the driver pipelines its single `send` over all chunks
        /// (`WindowedTransfer`) and reports the last answer.
        case windowed(ChunkLoop, SourceLocation)
        case finished
        case failed(ProcedureFailure)
    }

    public enum Outcome {
        case sent(fields: [String: Value])
        case received(fields: [String: Value])
        /// A windowed loop finished; the fields of the last answer.
        case windowed(lastFields: [String: Value])
        case streamed(lastReceipt: [String: Value]?)
        case failed(ExchangeFailure)
        case reconnected
        case waited
    }

    private struct LoopFrame {
        var data: [UInt8]
        /// First byte of the current chunk still to send (after `from`, the chunk's start).
        var position: Int
        var chunkSize: Int
        var index: Int
        var loop: ChunkLoop
        /// Chunks in a row after which `next` did not move forward.
        var stalls = 0

        /// Where the current chunk ends: `chunkSize` later, or at the next multiple of
        /// `chunkSize` for aligned loops.
        var end: Int {
            let next = loop.aligned ? (position / chunkSize + 1) * chunkSize : position + chunkSize
            return min(next, data.count)
        }

        /// Where the current chunk starts: its boundary for aligned loops.
        var start: Int { loop.aligned ? position / chunkSize * chunkSize : position }
    }

    private struct RetryFrame {
        var start: Int
        var attemptsLeft: Int
        var attempt: Int
        var loopDepth: Int
        var scope: Scope
    }

    private let program: ProcedureProgram
    private var counter = 0
    private var loops: [LoopFrame] = []
    private var retries: [RetryFrame] = []
    public private(set) var scope: Scope
    /// End offset of the last chunk finished by a loop that reports progress.
    public private(set) var completedOffset: Int?
    /// Whether an `expect` or `check` comparing against the image's checksums has passed.
    public private(set) var verified = false
    /// How many times a `retry` block started again.
    public private(set) var retryCount = 0

    public init(procedure: [Step], scope: Scope) {
        self.program = ProcedureProgram(procedure)
        self.scope = scope
    }

    /// Replaces variables that describe the connection (`link`, `present`) after a reconnect.
    public mutating func rebind(_ values: [String: Value]) {
        for (name, value) in values { scope[name] = value }
    }

    public mutating func start() -> Action {
        counter = 0
        return run()
    }

    public mutating func resume(_ outcome: Outcome) -> Action {
        guard counter < program.instructions.count else { return .finished }
        let instruction = program.instructions[counter]
        switch (instruction, outcome) {
        case let (.send(step, _), .failed) where step.optional:
            scope[step.alias] = .record(["ok": .boolean(false)])
        case let (.send(step, location), .sent(fields)):
            scope[step.alias] = .record(step.optional ? fields.merging(["ok": .boolean(true)]) { $1 } : fields)
            if let failure = unmet(step.expect, location: location, step: "send '\(step.command)'") {
                return recover(from: failure)
            }
        case let (.stream(step, _), .streamed(receipt)):
            if let receipt, let alias = step.receipts?.alias { scope[alias] = .record(receipt) }
        case let (.loopBegin(loop, exit, location), .windowed(lastFields)):
            if case let .send(send)? = loop.steps.first?.kind {
                scope[send.alias] = .record(lastFields)
                if let failure = unmet(send.expect, location: location, step: "send '\(send.command)'") {
                    return recover(from: failure)
                }
            }
            if loop.reportsProgress, case let .bytes(data)? = try? ExpressionEvaluator.evaluate(loop.data, in: scope) {
                completedOffset = data.count
            }
            counter = exit
            return run()
        case let (.await(step, location), .received(fields)):
            scope[step.alias] = .record(fields)
            if let failure = unmet(step.expect, location: location, step: "await '\(step.notification)'") {
                return recover(from: failure)
            }
        case let (_, .failed(failure)):
            return recover(from: ProcedureFailure(failure: failure, step: describe(instruction),
                                                  location: location(of: instruction), chunkOffset: loops.last?.position))
        default:
            break
        }
        counter += 1
        return run()
    }

    // MARK: - Running

    /// Executes instructions until one needs the driver.
    private mutating func run() -> Action {
        while counter < program.instructions.count {
            let instruction = program.instructions[counter]
            do {
                switch instruction {
                case let .send(step, location): return .send(step, location)
                case let .stream(step, location): return .stream(step, location)
                case let .reconnect(step): return .reconnect(step)
                case let .wait(duration): return .wait(duration)
                case let .await(step, location): return .await(step, location)
                case let .fail(message, location):
                    return .failed(ProcedureFailure(
                        failure: .expectationFailed(expression: "fail", location: location, values: message),
                        step: "fail", location: location, chunkOffset: loops.last?.position))
                case let .check(condition, message, location):
                    if let failure = unmet([condition], location: location, step: "check", message: message) {
                        return recover(from: failure)
                    }
                    counter += 1
                case let .set(bindings):
                    for binding in bindings {
                        scope[binding.name] = try ExpressionEvaluator.evaluate(binding.value, in: scope)
                    }
                    counter += 1
                case let .branch(condition, otherwise):
                    counter = try ExpressionEvaluator.condition(condition, in: scope) ? counter + 1 : otherwise
                case let .jump(target):
                    counter = target
                case let .loopBegin(loop, exit, location):
                    if loop.window != nil { return .windowed(loop, location) }
                    counter = try beginLoop(loop, exit: exit, location: location)
                case let .loopNext(body):
                    counter = try nextChunk(body: body)
                case let .retryBegin(attempts, _):
                    scope["retry"] = .record(["attempt": .integer(0)])
                    retries.append(RetryFrame(start: counter + 1, attemptsLeft: attempts - 1, attempt: 0,
                                              loopDepth: loops.count, scope: scope))
                    counter += 1
                case .retryEnd:
                    retries.removeLast()
                    counter += 1
                }
            } catch {
                return .failed(ProcedureFailure(failure: .evaluation(error), step: describe(instruction),
                                                location: error.location, chunkOffset: loops.last?.position))
            }
        }
        return .finished
    }

    private mutating func beginLoop(_ loop: ChunkLoop, exit: Int, location: SourceLocation) throws(EvaluationError) -> Int {
        let data = try ExpressionEvaluator.bytes(loop.data, in: scope)
        let from = try loop.from.map { (expression) throws(EvaluationError) in try ExpressionEvaluator.integer(expression, in: scope) } ?? 0
        let size = try ExpressionEvaluator.integer(loop.size, in: scope)
        guard size > 0 else {
            throw EvaluationError(expression: loop.size.text, location: loop.size.location, message: "the chunk size is 0")
        }
        guard from < UInt64(data.count) else {
            if loop.reportsProgress { completedOffset = data.count }
            return exit
        }
        let frame = LoopFrame(data: data, position: Int(from), chunkSize: Int(min(size, UInt64(Int32.max))), index: 0,
                              loop: loop)
        loops.append(frame)
        bindChunk(frame)
        return counter + 1
    }

    private mutating func nextChunk(body: Int) throws(EvaluationError) -> Int {
        var frame = loops.removeLast()
        var end = frame.end
        if let next = frame.loop.next {
            // Where the device wants the next chunk (e.g. SMP's `off`).
            let wanted = Int(min(try ExpressionEvaluator.integer(next, in: scope), UInt64(frame.data.count)))
            frame.stalls = wanted > frame.position ? 0 : frame.stalls + 1
            guard frame.stalls < 3 else {
                throw EvaluationError(expression: next.text, location: next.location,
                                      message: "the device asked for offset \(wanted) three times without progress")
            }
            end = wanted
        }
        if frame.loop.reportsProgress { completedOffset = end }
        guard end < frame.data.count else { return counter + 1 }
        frame.position = end
        frame.index += 1
        loops.append(frame)
        bindChunk(frame)
        return body
    }

    private mutating func bindChunk(_ frame: LoopFrame) {
        let end = frame.end
        let start = frame.start
        scope[frame.loop.alias] = .record([
            "offset": .integer(UInt64(start)),
            "from": .integer(UInt64(frame.position)),
            "end": .integer(UInt64(end)),
            "size": .integer(UInt64(end - start)),
            "data": .bytes(Array(frame.data[start..<end])),
            "index": .integer(UInt64(frame.index)),
            "first": .boolean(frame.index == 0),
            "last": .boolean(end == frame.data.count),
        ])
    }

    // MARK: - Failures and retries

    private mutating func unmet(_ conditions: [Expression], location: SourceLocation, step: String,
                                message: String? = nil) -> ProcedureFailure? {
        for condition in conditions {
            do {
                if try ExpressionEvaluator.condition(condition, in: scope) {
                    if Self.comparesImageChecksum(condition.node) { verified = true }
                    continue
                }
                let values = Self.paths(in: condition.node).compactMap { path -> String? in
                    scope.lookup(path).map { "\(path.joined(separator: ".")) = \($0)" }
                }
                let detail = ([message].compactMap { $0 } + values).joined(separator: "; ")
                return ProcedureFailure(failure: .expectationFailed(expression: condition.text, location: condition.location,
                                                                    values: detail),
                                        step: step, location: location, chunkOffset: loops.last?.position)
            } catch {
                return ProcedureFailure(failure: .evaluation(error), step: step, location: location,
                                        chunkOffset: loops.last?.position)
            }
        }
        return nil
    }

    /// Starts the innermost retry block again, if it has attempts left; else fails.
    private mutating func recover(from failure: ProcedureFailure) -> Action {
        guard failure.failure.isRetryable else { return .failed(failure) }
        while let frame = retries.last {
            if frame.attemptsLeft > 0 {
                retries[retries.count - 1].attemptsLeft -= 1
                retries[retries.count - 1].attempt += 1
                loops.removeLast(loops.count - frame.loopDepth)
                scope = frame.scope
                scope["retry"] = .record(["attempt": .integer(UInt64(frame.attempt + 1))])
                counter = frame.start
                retryCount += 1
                return run()
            }
            retries.removeLast()
        }
        return .failed(failure)
    }

    private func describe(_ instruction: ProcedureProgram.Instruction) -> String {
        switch instruction {
        case let .send(step, _): return "send '\(step.command)'"
        case let .stream(step, _): return "stream to '\(step.to)'"
        case .check: return "check"
        case .set: return "set"
        case .branch: return "if"
        case let .loopBegin(loop, _, _):
            if loop.window != nil, case let .send(send)? = loop.steps.first?.kind { return "send '\(send.command)'" }
            return "chunks"
        case .reconnect: return "reconnect"
        case .wait: return "wait"
        case .fail: return "fail"
        case let .await(step, _): return "await '\(step.notification)'"
        case .jump, .loopNext, .retryBegin, .retryEnd: return "procedure"
        }
    }

    private func location(of instruction: ProcedureProgram.Instruction) -> SourceLocation {
        switch instruction {
        case let .send(_, location), let .stream(_, location), let .check(_, _, location),
             let .loopBegin(_, _, location), let .fail(_, location), let .await(_, location):
            return location
        default:
            return SourceLocation(file: "procedure", line: 0, column: 0)
        }
    }

    static func comparesImageChecksum(_ node: Expression.Node) -> Bool {
        switch node {
        case let .path(path): return [["image", "crc32"], ["image", "sha256"], ["image", "hash"]].contains(path)
        case let .call(function, arguments):
            if [.crc32, .crc16, .sha256].contains(function), arguments.contains(where: { paths(in: $0).contains(["image", "data"]) }) {
                return true
            }
            return arguments.contains(where: comparesImageChecksum)
        case let .unary(_, operand): return comparesImageChecksum(operand)
        case let .binary(_, left, right): return comparesImageChecksum(left) || comparesImageChecksum(right)
        default: return false
        }
    }

    static func paths(in node: Expression.Node) -> [[String]] {
        switch node {
        case let .path(path): return [path]
        case let .call(_, arguments): return arguments.flatMap(paths(in:))
        case let .unary(_, operand): return paths(in: operand)
        case let .binary(_, left, right): return paths(in: left) + paths(in: right)
        default: return []
        }
    }
}
