import DFUProfile

/// A failure inside the procedure, with the step it happened at.
public struct ProcedureFailure: Error, Sendable {
    /// What went wrong.
    public var failure: ExchangeFailure
    /// What was being done, e.g. "send 'data'".
    public var step: String
    /// The step's place in the profile.
    public var location: SourceLocation
    /// The chunk being sent, when inside a chunk loop.
    package var chunkOffset: Int?
    /// What the device may hold, as the failed check's `holds` says (empty: as the phases tell).
    public var deviceHolds: [FirmwareStage] = []
}

/// What happened to a phase, in order, for the driver to report.
package enum PhaseEvent: Sendable {
    /// The procedure entered the phase (the device had not completed it).
    case entered(PhaseStep)
    /// The phase's steps all ran.
    case completed(PhaseStep)
    /// The device had already completed it (its `done` held): skipped.
    case alreadyDone(PhaseStep)
    /// The phase's steps all ran, but nothing in them proved that the device runs the new
    /// image, as the phase's stage claims: it may be in any of `holds`.
    case unproven(PhaseStep, holds: [FirmwareStage])
}

/// Runs a profile's procedure for one image as a pure state machine: it never performs I/O;
/// it asks the driver to send a command, stream bytes, reconnect or wait, and continues with
/// what the driver reports back.
package struct ProcedureMachine {
    public enum Action {
        case send(SendStep, SourceLocation)
        case stream(StreamStep, SourceLocation)
        case reconnect(ReconnectStep)
        case wait(Duration)
        /// Wait for a notification, or the first of several (no request goes out).
        case await(AwaitStep, SourceLocation)
        /// Read a characteristic.
        case read(ReadStep, SourceLocation)
        /// A chunk loop with a window: the driver pipelines its single `send` over all chunks
        /// (`WindowedTransfer`) and reports the last answer.
        case windowed(ChunkLoop, SourceLocation)
        case finished
        case failed(ProcedureFailure)
    }

    public enum Outcome {
        case sent(fields: [String: Value])
        /// The awaited notification `name` arrived with these fields.
        case received(name: String, fields: [String: Value])
        /// A characteristic was read.
        case read(value: [UInt8])
        /// A windowed loop finished; the fields of the last answer.
        case windowed(lastFields: [String: Value])
        case streamed(lastReceipt: [String: Value]?)
        case failed(ExchangeFailure)
        case reconnected
        case waited
    }

    /// A sequential chunk loop under way: its cursor and the chunk its steps work on.
    private struct LoopFrame {
        var data: [UInt8]
        var cursor: ChunkCursor
        var chunk: ChunkCursor.Chunk
        var loop: ChunkLoop
    }

    private struct RetryFrame {
        var start: Int
        var attemptsLeft: Int
        var attempt: Int
        var loopDepth: Int
        var serveDepth: Int
        var scope: Scope
    }

    /// A device-driven transfer under way: its data, block size, and how far blocks were served.
    private struct ServeFrame {
        var data: [UInt8]
        var size: Int
        var servedEnd = 0
    }

    private let program: ProcedureProgram
    private var counter = 0
    private var loops: [LoopFrame] = []
    private var serves: [ServeFrame] = []
    private var retries: [RetryFrame] = []
    package private(set) var scope: Scope
    /// End offset of the last chunk finished by a loop that reports progress.
    package private(set) var completedOffset: Int?
    /// Where a progress-reporting loop's device already was before it sent anything: the
    /// loop's `from` (the offset the profile read from the device), the device's first answer
    /// (`ChunkCursor.resumedAt`) or the first block a device-driven loop asked for; the data's
    /// size when the loop had nothing left to send.
    package private(set) var resumedAt: Int?
    /// Progress stops here: the image's size, so data a transfer sends after the image (SUOTA's
    /// XOR byte) neither counts as image bytes nor takes progress past the image's end.
    package var progressLimit = Int.max
    /// Whether an `expect`, `check` or phase `done` comparing against the image's checksums
    /// passed, or a `send` with `verifies` was answered with success.
    public private(set) var verified = false
    /// Which names hold the device's answers, for telling a confirmation of the image apart from
    /// a check over the image alone.
    private var confirmation = ImageConfirmation()
    /// How many times a `retry` block started again.
    package private(set) var retryCount = 0
    /// Phases completed in this update (this run and earlier ones, as given at creation).
    package private(set) var completedPhases: Set<String>
    /// The phase being run, if any.
    package private(set) var currentPhase: PhaseStep?
    /// The stage the device reached, as far as the phases passed in this run tell.
    public private(set) var stage: FirmwareStage?
    /// Phase events in order; the driver reports the new ones after each step.
    package private(set) var phaseEvents: [PhaseEvent] = []
    /// What proved the stage the device is in, in words (the last evidence found: the device's
    /// own check of the image, a checksum it answered, which image it runs after the update).
    package private(set) var evidence: String?
    /// What, in the phase under way, proved that the device runs the new image.
    private var phaseProof: String?
    /// Why an `observe` in the phase under way could not tell which image runs.
    private var phaseDoubt: String?
    /// The expression each `set` variable was last computed from, so that evidence resting on
    /// one can show the device's answers behind it.
    private var derivations: [String: Expression] = [:]
    /// The values of `once` reads, kept for the next run of this update (a resume).
    package private(set) var onceAnswers: [String: [String: Value]]

    /// `completedPhases`: the phases an earlier run of this update completed (a resume);
    /// `onceAnswers`: what its `once` reads got (bound here and not read again).
    public init(procedure: [Step], scope: Scope, completedPhases: Set<String> = [], onceAnswers: [String: [String: Value]] = [:]) {
        self.program = ProcedureProgram(procedure)
        self.scope = scope
        self.completedPhases = completedPhases
        self.onceAnswers = onceAnswers
        for (name, value) in onceAnswers { bindAnswer(name, value) }
    }

    /// Replaces variables that describe the connection (`link`, `present`) after a reconnect.
    package mutating func rebind(_ values: [String: Value]) {
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
        case let (.send(step, _), .failed(failure)) where step.optional:
            // What went wrong, for the steps that look where the device is afterwards.
            let answer: [String: Value] = ["ok": .boolean(false), "error": .string(Self.said(failure))]
            bindAnswer(step.alias, answer)
            if step.once { onceAnswers[step.alias] = answer }
        case let (.send(step, location), .sent(fields)):
            let answer = step.optional ? fields.merging(["ok": .boolean(true), "error": .string("")]) { $1 } : fields
            bindAnswer(step.alias, answer)
            if step.once { onceAnswers[step.alias] = answer }
            if let failure = unmet(step.expect, location: location, step: "send '\(step.command)'") {
                return recover(from: failure)
            }
            // The device's success answer is its own check of the whole image (`verifies`).
            if step.verifies {
                verified = true
                noteProof("the device answered '\(step.command)' with success, its own check of the whole image")
            }
        case let (.stream(step, _), .streamed(receipt)):
            if let receipt, let alias = step.receipts?.alias { bindAnswer(alias, receipt) }
        case let (.loopBegin(loop, exit, location), .windowed(lastFields)):
            if case let .send(send)? = loop.steps.first?.kind {
                bindAnswer(send.alias, lastFields)
                if let failure = unmet(send.expect, location: location, step: "send '\(send.command)'") {
                    return recover(from: failure)
                }
            }
            if loop.reportsProgress, case let .bytes(data)? = try? ExpressionEvaluator.evaluate(loop.data, in: scope) {
                completedOffset = min(data.count, progressLimit)
            }
            counter = exit
            return run()
        case let (.await(step, location), .received(name, fields)):
            bindAnswer(step.alternatives.isEmpty ? step.alias : name, fields)
            scope["awaited"] = .string(name)
            if let failure = unmet(step.expect, location: location, step: "await '\(name)'") {
                return recover(from: failure)
            }
        case let (.serveWait(loop, exit, location), .received(name, fields)):
            bindAnswer(name, fields)
            scope["awaited"] = .string(name)
            if name == loop.done {
                serves.removeLast()
                counter = exit
                return run()
            }
            do {
                try serveBlock(loop, location: location)
            } catch {
                return .failed(ProcedureFailure(failure: .evaluation(error), step: "serve", location: location,
                                                chunkOffset: nil))
            }
        case let (.read(step, location), .read(value)):
            var text = String(decoding: value, as: UTF8.self)
            while text.hasSuffix("\0") { text.removeLast() }
            let record: [String: Value] = ["value": .bytes(value), "text": .string(text), "size": .integer(UInt64(value.count))]
            bindAnswer(step.alias, record)
            if step.once { onceAnswers[step.alias] = record }
            if let failure = unmet(step.expect, location: location, step: "read '\(step.characteristic)'") {
                return recover(from: failure)
            }
        case let (_, .failed(failure)):
            return recover(from: ProcedureFailure(failure: failure, step: describe(instruction),
                                                  location: location(of: instruction),
                                                  chunkOffset: loops.last?.chunk.from))
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
            do throws(EvaluationError) {
                switch instruction {
                case let .send(step, location):
                    // Asked before the update began, in an earlier run: kept, not asked again.
                    if step.once, onceAnswers[step.alias] != nil {
                        counter += 1
                        continue
                    }
                    return .send(step, location)
                case let .stream(step, location): return .stream(step, location)
                case let .reconnect(step): return .reconnect(step)
                case let .wait(duration): return .wait(duration)
                case let .await(step, location): return .await(step, location)
                case let .read(step, location):
                    // Read before the update began, in an earlier run: kept, not read again.
                    if step.once, onceAnswers[step.alias] != nil {
                        counter += 1
                        continue
                    }
                    return .read(step, location)
                case let .observe(step, location):
                    if let failure = observe(step, location: location) { return recover(from: failure) }
                    counter += 1
                case let .serveBegin(loop, _):
                    let data = try ExpressionEvaluator.bytes(loop.data, in: scope)
                    let size = try ExpressionEvaluator.integer(loop.size, in: scope)
                    guard size > 0 else {
                        throw EvaluationError(expression: loop.size.text, location: loop.size.location,
                                              message: "the block size is 0")
                    }
                    serves.append(ServeFrame(data: data, size: Int(min(size, UInt64(Int32.max)))))
                    counter += 1
                case let .serveWait(loop, _, location):
                    var wait = AwaitStep(notification: loop.request, alias: loop.request, timeout: loop.timeout, expect: [])
                    wait.alternatives = loop.done.map { [$0] } ?? []
                    return .await(wait, location)
                case let .serveNext(loop, wait):
                    if var frame = serves.popLast() {
                        if case let .record(block)? = scope[loop.alias], case let .integer(end)? = block["end"] {
                            let end = min(Int(end), progressLimit)
                            // The first block a device asks for says where one that kept part of the data stands.
                            if loop.reportsProgress, frame.servedEnd == 0, case let .integer(offset)? = block["offset"], offset > 0 {
                                resumedAt = resumedAt ?? min(Int(offset), end)
                            }
                            frame.servedEnd = max(frame.servedEnd, end)
                        }
                        if loop.reportsProgress { completedOffset = min(frame.servedEnd, progressLimit) }
                        serves.append(frame)
                    }
                    if let until = loop.until, try ExpressionEvaluator.condition(until, in: scope) {
                        serves.removeLast()
                        counter += 1
                    } else {
                        counter = wait
                    }
                case let .fail(message, location):
                    return .failed(ProcedureFailure(
                        failure: .expectationFailed(expression: "fail", location: location, values: message),
                        step: "fail", location: location, chunkOffset: loops.last?.chunk.from))
                case let .check(condition, message, holds, verifies, location):
                    if var failure = unmet([condition], location: location, step: "check", message: message) {
                        failure.deviceHolds = holds
                        return recover(from: failure)
                    }
                    if verifies {
                        verified = true
                        noteProof("what the device reported holds: \(condition.text)"
                                  + (ConditionWitness.values(of: condition, in: scope, excluding: ["param"]).map { " (\($0))" } ?? ""))
                    }
                    counter += 1
                case let .set(bindings):
                    for binding in bindings {
                        scope[binding.name] = try ExpressionEvaluator.evaluate(binding.value, in: scope)
                        derivations[binding.name] = binding.value
                        if confirmation.readsAnswer(binding.value.node) {
                            confirmation.answerNames.insert(binding.name)
                        } else {
                            confirmation.answerNames.remove(binding.name)
                        }
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
                                              loopDepth: loops.count, serveDepth: serves.count, scope: scope))
                    counter += 1
                case .retryEnd:
                    retries.removeLast()
                    counter += 1
                case let .phaseBegin(phase, exit, location):
                    if let failure = try beginPhase(phase, exit: exit, location: location) { return .failed(failure) }
                case let .phaseEnd(phase):
                    endPhase(phase)
                    counter += 1
                }
            } catch {
                return .failed(ProcedureFailure(failure: .evaluation(error), step: describe(instruction),
                                                location: error.location, chunkOffset: loops.last?.chunk.from))
            }
        }
        return .finished
    }

    /// Skips a phase the device already completed; refuses to run one again that completed
    /// earlier in this update (unless the protocol wants it repeated); else enters it.
    private mutating func beginPhase(_ phase: PhaseStep, exit: Int, location: SourceLocation) throws(EvaluationError) -> ProcedureFailure? {
        if let done = phase.done, try ExpressionEvaluator.condition(done, in: scope) {
            if confirmation.confirms(done.node) { verified = true }
            if confirmation.confirms(done.node) || (phase.achieves ?? .unchanged) >= .unconfirmed {
                evidence = "the device showed it had already completed phase '\(phase.name)': " + explained(done)
            }
            completedPhases.insert(phase.name)
            stage = phase.achieves ?? stage
            phaseEvents.append(.alreadyDone(phase))
            counter = exit
            return nil
        }
        if completedPhases.contains(phase.name), !phase.repeatable {
            let values = phase.done.map { done in
                Self.paths(in: done.node).compactMap { path -> String? in
                    scope.lookup(path).map { "\(path.joined(separator: ".")) = \($0)" }
                }.joined(separator: "; ")
            } ?? ""
            return ProcedureFailure(failure: .phaseUndone(phase: phase.name, done: phase.done?.text ?? "",
                                                          values: values),
                                    step: "phase '\(phase.name)'", location: location, chunkOffset: nil)
        }
        currentPhase = phase
        phaseProof = nil
        phaseDoubt = nil
        phaseEvents.append(.entered(phase))
        counter += 1
        return nil
    }

    /// Ends a phase whose steps all ran. A phase whose stage has the device run the new image
    /// reaches it only when something in it proved that (an `observe`, a confirmed checksum, a
    /// check that `verifies`); otherwise the device may be in any of the phase's unproven stages,
    /// and the evidence says nothing proved which.
    private mutating func endPhase(_ phase: PhaseStep) {
        completedPhases.insert(phase.name)
        currentPhase = nil
        guard let achieves = phase.achieves, achieves >= .unconfirmed, phaseProof == nil else {
            stage = phase.achieves ?? stage
            phaseEvents.append(.completed(phase))
            return
        }
        let before = stage ?? .unchanged
        let declared = phase.unproven?.holds ?? []
        let holds = Array(Set(declared.isEmpty ? [before, achieves] : declared)).sorted()
        let reasons = [phaseDoubt, phase.unproven?.message].compactMap { $0 }
        let why = reasons.isEmpty ? "nothing the device answered after phase '\(phase.name)' shows which image it runs"
            : reasons.joined(separator: "; ")
        evidence = [evidence, why].compactMap { $0 }.joined(separator: "; ")
        stage = holds.first ?? before
        phaseEvents.append(.unproven(phase, holds: holds))
    }

    /// A condition and the values it read; a lone `set` variable is shown as what it was
    /// computed from, with the device's answers behind it.
    private func explained(_ condition: Expression) -> String {
        var shown = condition
        if case let .path(path) = condition.node, path.count == 1, let derivation = derivations[path[0]] {
            shown = derivation
        }
        return shown.text + (ConditionWitness.values(of: shown, in: scope, excluding: ["param", "image"]).map { " (\($0))" } ?? "")
    }

    /// Records what proved the stage; inside a phase that has the device run the new image,
    /// it is that phase's proof.
    private mutating func noteProof(_ text: String) {
        evidence = text
        if currentPhase != nil { phaseProof = text }
    }

    /// Judges an `observe`: the new image runs (the phase's proof), the previous one does (a
    /// failure saying so, with the stages that leaves), or nothing can tell (the phase ends
    /// unproven).
    private mutating func observe(_ step: ObserveStep, location: SourceLocation) -> ProcedureFailure? {
        let after: Value
        do {
            after = try ExpressionEvaluator.evaluate(step.after, in: scope)
        } catch {
            return ProcedureFailure(failure: .expectationFailed(expression: step.after.text, location: step.after.location,
                                                                values: "cannot be evaluated: \(error.message)"),
                                    step: "observe", location: location, chunkOffset: nil)
        }
        // What was not read (an optional characteristic the device lacks) is not known.
        let before = step.before.flatMap { try? ExpressionEvaluator.evaluate($0, in: scope) }
        let new = step.new.flatMap { try? ExpressionEvaluator.evaluate($0, in: scope) }
        let reboot: RunningImageEvidence.Reboot
        if case let .string(text)? = scope.lookup(["link", "reboot"]) {
            reboot = RunningImageEvidence.Reboot(rawValue: text) ?? .none
        } else {
            reboot = .none
        }
        let judged = RunningImageEvidence(subject: step.subject, before: before, after: after, new: new, reboot: reboot)
        switch judged.verdict {
        case let .newRuns(text):
            noteProof(text)
            if step.verifies { verified = true }
            return nil
        case let .cannotTell(text):
            phaseDoubt = text
            return nil
        case let .previousRuns(text, reset):
            evidence = text
            let prior = stage ?? .unchanged
            var failure = ProcedureFailure(
                failure: .expectationFailed(expression: "", location: location,
                                            values: "the device does not run the new image: \(text)"),
                step: "observe", location: location, chunkOffset: nil)
            // Kept the link: it did not reset, and still holds what the phases before gave it, to
            // start at its next reset. Dropped it: its bootloader did not start the new image, or,
            // when the phases before set the new image to boot, it ended the link without
            // resetting (a link drop is not a reset).
            failure.deviceHolds = reset ? (prior >= .pending ? [.unchanged, prior] : [.unchanged]) : [prior]
            return failure
        }
    }

    private mutating func beginLoop(_ loop: ChunkLoop, exit: Int, location: SourceLocation) throws(EvaluationError) -> Int {
        let data = try ExpressionEvaluator.bytes(loop.data, in: scope)
        let from = try loop.from.map { (expression) throws(EvaluationError) in try ExpressionEvaluator.integer(expression, in: scope) } ?? 0
        let size = try ExpressionEvaluator.integer(loop.size, in: scope)
        guard size > 0 else {
            throw EvaluationError(expression: loop.size.text, location: loop.size.location, message: "the chunk size is 0")
        }
        var cursor = ChunkCursor(count: data.count, from: Int(min(from, UInt64(data.count))),
                                 size: Int(min(size, UInt64(Int32.max))), aligned: loop.aligned)
        let held = min(cursor.position, progressLimit)
        if loop.reportsProgress, held > 0 { resumedAt = resumedAt ?? held }
        guard !cursor.isFinished else {
            if loop.reportsProgress { completedOffset = min(data.count, progressLimit) }
            return exit
        }
        let chunk = cursor.next()
        loops.append(LoopFrame(data: data, cursor: cursor, chunk: chunk, loop: loop))
        scope[loop.alias] = ChunkCursor.record(chunk, of: data)
        return counter + 1
    }

    private mutating func nextChunk(body: Int) throws(EvaluationError) -> Int {
        var frame = loops.removeLast()
        var wanted = frame.chunk.end
        if let next = frame.loop.next {
            // Where the device wants the next chunk (e.g. SMP's `off`).
            wanted = Int(min(try ExpressionEvaluator.integer(next, in: scope), UInt64(frame.data.count)))
        }
        do {
            try frame.cursor.answered(frame.chunk, wants: wanted)
        } catch {
            let next = frame.loop.next
            throw EvaluationError(expression: next?.text ?? "next", location: next?.location ?? frame.loop.size.location,
                                  message: "the device asked for offset \(error.wanted) three times without progress")
        }
        if frame.loop.reportsProgress {
            completedOffset = min(wanted, progressLimit)
            resumedAt = resumedAt ?? frame.cursor.resumedAt.map { min($0, progressLimit) }
        }
        guard !frame.cursor.isFinished else { return counter + 1 }
        frame.chunk = frame.cursor.next()
        scope[frame.loop.alias] = ChunkCursor.record(frame.chunk, of: frame.data)
        loops.append(frame)
        return body
    }

    /// Binds the block the device's request asks for (its number from `block`); the steps follow.
    private mutating func serveBlock(_ loop: ServeLoop, location: SourceLocation) throws(EvaluationError) {
        guard let frame = serves.last else { return }
        let number = try ExpressionEvaluator.integer(loop.block, in: scope)
        let blocks = (frame.data.count + frame.size - 1) / frame.size
        guard number < UInt64(blocks) else {
            throw EvaluationError(expression: loop.block.text, location: loop.block.location,
                                  message: "the device asked for block \(number); the image has \(blocks) of \(frame.size) bytes")
        }
        let offset = Int(number) * frame.size
        let end = min(offset + frame.size, frame.data.count)
        let chunk = ChunkCursor.Chunk(offset: offset, from: offset, end: end, index: Int(number), isLast: end == frame.data.count)
        scope[loop.alias] = ChunkCursor.record(chunk, of: frame.data)
    }

    // MARK: - Failures and retries

    private mutating func unmet(_ conditions: [Expression], location: SourceLocation, step: String,
                                message: String? = nil) -> ProcedureFailure? {
        for condition in conditions {
            do {
                if try ExpressionEvaluator.condition(condition, in: scope) {
                    if confirmation.confirms(condition.node) {
                        verified = true
                        noteProof("the device's answer matched the new image's checksum: \(condition.text)")
                    }
                    continue
                }
                let values = Self.paths(in: condition.node).compactMap { path -> String? in
                    scope.lookup(path).map { "\(path.joined(separator: ".")) = \($0)" }
                }
                let detail = ([message].compactMap { $0 } + values).joined(separator: "; ")
                return ProcedureFailure(failure: .expectationFailed(expression: condition.text, location: condition.location,
                                                                    values: detail),
                                        step: step, location: location, chunkOffset: loops.last?.chunk.from)
            } catch {
                // A condition over what the device answered that cannot be evaluated (a value of
                // the wrong shape: a garbled answer) fails like an unmet one, so `retry` may ask again.
                return ProcedureFailure(failure: .expectationFailed(expression: condition.text, location: condition.location,
                                                                    values: "cannot be evaluated: \(error.message)"),
                                        step: step, location: location, chunkOffset: loops.last?.chunk.from)
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
                serves.removeLast(serves.count - frame.serveDepth)
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
        case let .phaseBegin(phase, _, _), let .phaseEnd(phase): return "phase '\(phase.name)'"
        case let .serveBegin(loop, _), let .serveWait(loop, _, _), let .serveNext(loop, _):
            return "serve '\(loop.request)'"
        case let .read(step, _): return "read '\(step.characteristic)'"
        case let .observe(step, _): return "observe \(step.subject)"
        case .jump, .loopNext, .retryBegin, .retryEnd: return "procedure"
        }
    }

    private func location(of instruction: ProcedureProgram.Instruction) -> SourceLocation {
        switch instruction {
        case let .send(_, location), let .stream(_, location), let .check(_, _, _, _, location),
             let .loopBegin(_, _, location), let .fail(_, location), let .await(_, location),
             let .phaseBegin(_, _, location), let .serveBegin(_, location), let .serveWait(_, _, location),
             let .read(_, location), let .observe(_, location):
            return location
        default:
            return SourceLocation(file: "procedure", line: 0, column: 0)
        }
    }

    /// A failure in a few words: the device's status by name, or what did not come.
    static func said(_ failure: ExchangeFailure) -> String {
        switch failure {
        case let .deviceStatus(status): return "\(status)"
        case let .timeout(after, attempts, _): return "no answer within \(after) (\(attempts) attempt(s))"
        case let .expectationFailed(expression, _, values): return expression.isEmpty ? values : "expected \(expression) (\(values))"
        case let .evaluation(error): return error.description
        case let .phaseUndone(phase, _, _): return "phase '\(phase)' no longer done"
        }
    }

    static func paths(in node: Expression.Node) -> [[String]] {
        ImageConfirmation.paths(in: node)
    }

    /// Binds a device's answer under `name` (so that a comparison with it can confirm the image).
    private mutating func bindAnswer(_ name: String, _ fields: [String: Value]) {
        scope[name] = .record(fields)
        confirmation.answerNames.insert(name)
    }
}
