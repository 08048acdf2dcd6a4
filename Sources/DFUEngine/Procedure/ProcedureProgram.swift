import DFUProfile

/// A procedure flattened into instructions with jumps, so the machine that runs it is a plain
/// program counter plus two stacks (loops and retry blocks) and stays pure.
struct ProcedureProgram {
    enum Instruction {
        case send(SendStep, SourceLocation)
        case stream(StreamStep, SourceLocation)
        case check(Expression, message: String, holds: [FirmwareStage], verifies: Bool, SourceLocation)
        case set([(name: String, value: Expression)])
        /// Continue when the condition holds, else jump to `otherwise`.
        case branch(Expression, otherwise: Int)
        case jump(Int)
        /// Start a chunk loop; jump to `exit` when there is nothing to do.
        case loopBegin(ChunkLoop, exit: Int, SourceLocation)
        /// End of a loop body: advance and jump back to `body`, or leave the loop.
        case loopNext(body: Int)
        case retryBegin(attempts: Int, exit: Int)
        case retryEnd
        case reconnect(ReconnectStep)
        case wait(Duration)
        case fail(String, SourceLocation)
        case await(AwaitStep, SourceLocation)
        /// Enter a phase, or jump to `exit` when the device already completed it.
        case phaseBegin(PhaseStep, exit: Int, SourceLocation)
        case phaseEnd(PhaseStep)
        /// Start a device-driven transfer (evaluate its data and block size).
        case serveBegin(ServeLoop, SourceLocation)
        /// Wait for the device's next request (continue into the steps) or its "done" (jump to `exit`).
        case serveWait(ServeLoop, exit: Int, SourceLocation)
        /// End of a served block: jump back to `wait`, or leave when `until` holds.
        case serveNext(ServeLoop, wait: Int)
        case read(ReadStep, SourceLocation)
        case observe(ObserveStep, SourceLocation)
    }

    private(set) var instructions: [Instruction] = []

    init(_ steps: [Step]) {
        compile(steps)
    }

    private mutating func compile(_ steps: [Step]) {
        for step in steps { compile(step) }
    }

    private mutating func compile(_ step: Step) {
        switch step.kind {
        case let .send(send): instructions.append(.send(send, step.location))
        case let .stream(stream): instructions.append(.stream(stream, step.location))
        case let .check(condition, message, holds, verifies):
            instructions.append(.check(condition, message: message, holds: holds, verifies: verifies, step.location))
        case let .set(bindings): instructions.append(.set(bindings))
        case let .conditional(condition, then, otherwise):
            let branch = reserve()
            compile(then)
            let jumpOver = reserve()
            instructions[branch] = .branch(condition, otherwise: instructions.count)
            compile(otherwise)
            instructions[jumpOver] = .jump(instructions.count)
        case let .chunks(loop):
            let begin = reserve()
            compile(loop.steps)
            instructions.append(.loopNext(body: begin + 1))
            instructions[begin] = .loopBegin(loop, exit: instructions.count, step.location)
        case let .retry(attempts, steps):
            let begin = reserve()
            compile(steps)
            instructions.append(.retryEnd)
            instructions[begin] = .retryBegin(attempts: attempts, exit: instructions.count)
        case let .reconnect(reconnect): instructions.append(.reconnect(reconnect))
        case let .wait(duration): instructions.append(.wait(duration))
        case let .fail(message): instructions.append(.fail(message, step.location))
        case let .await(wait): instructions.append(.await(wait, step.location))
        case let .phase(phase):
            let begin = reserve()
            compile(phase.steps)
            instructions.append(.phaseEnd(phase))
            instructions[begin] = .phaseBegin(phase, exit: instructions.count, step.location)
        case let .serve(loop):
            instructions.append(.serveBegin(loop, step.location))
            let wait = reserve()
            compile(loop.steps)
            instructions.append(.serveNext(loop, wait: wait))
            instructions[wait] = .serveWait(loop, exit: instructions.count, step.location)
        case let .read(read):
            instructions.append(.read(read, step.location))
        case let .observe(observe):
            instructions.append(.observe(observe, step.location))
        }
    }

    /// Appends a placeholder to patch once its jump target is known.
    private mutating func reserve() -> Int {
        instructions.append(.jump(-1))
        return instructions.count - 1
    }
}
