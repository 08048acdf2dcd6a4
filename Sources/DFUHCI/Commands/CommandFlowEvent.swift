/// What happens to the host's HCI commands, as `CommandFlowMachine` takes it. A command is
/// named by an ID the host chooses, unique per host.
package enum CommandFlowEvent: Sendable, Hashable {
    /// A caller wants to send a command; its answer is awaited at most `timeout` once it is sent.
    case issued(CommandFlowMachine.ID, opcode: HCIOpcode, name: String, timeout: Duration)
    /// The caller that had the turn wrote the command to the controller.
    case sent(CommandFlowMachine.ID)
    /// Writing the command failed: it never reached the controller.
    case sendFailed(CommandFlowMachine.ID, HCIError)
    /// An event from the controller (only Command Complete and Command Status matter here).
    case eventReceived(HCIEvent)
    /// The command's timer ran out before its answer came.
    case timerFired(CommandFlowMachine.ID)
    /// The host closed or lost its controller: every command fails with `error`.
    case hostClosed(HCIError)
}

/// What `CommandFlowMachine` asks the host to do, in the order given.
package enum CommandFlowAction: Sendable, Hashable {
    /// The caller of the command may write it to the controller now (then `.sent` or `.sendFailed`).
    case grantTurn(CommandFlowMachine.ID)
    /// Report `.timerFired(id)` after `duration`.
    case startTimer(CommandFlowMachine.ID, after: Duration)
    case cancelTimer(CommandFlowMachine.ID)
    /// The command is over: its return parameters after the status (Command Complete), [] once
    /// it started (Command Status), or why it failed.
    case complete(CommandFlowMachine.ID, Result<[UInt8], HCIError>)
}
