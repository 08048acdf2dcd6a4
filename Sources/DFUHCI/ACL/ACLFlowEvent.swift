/// What happens to the host's ACL sending, as `ACLFlowMachine` takes it. A sender is one
/// L2CAP frame on its way out (`HCIHost.sendL2CAP`); a connection is named by its handle
/// (the controller's accounting) and by the host's connection ID (a handle is reused by a
/// later connection, an ID never is).
package enum ACLFlowEvent: Sendable, Hashable {
    /// A sender wants the connection's send turn, so that its fragments do not interleave
    /// with another frame's on that connection.
    case frameStarted(ACLFlowMachine.Sender, connection: UInt64)
    /// The sender is done with the turn (sent, or failed).
    case frameFinished(ACLFlowMachine.Sender, connection: UInt64)
    /// The sender needs one credit (one controller buffer) for its next fragment on `handle`.
    case creditRequested(ACLFlowMachine.Sender, handle: UInt16)
    /// The sender waited `creditTimeout` without a credit.
    case creditTimedOut(ACLFlowMachine.Sender)
    /// A credit was taken but its packet never reached the controller (the send failed, or
    /// the connection ended meanwhile).
    case creditUnused(handle: UInt16)
    /// Number Of Completed Packets: `count` buffers of `handle` are free again.
    case packetsCompleted(handle: UInt16, count: Int)
    /// The connection ended: the controller dropped its queued packets (their buffers are
    /// free, Core Vol 4, Part E, 4.1.1) and its waiting senders give up.
    case connectionClosed(handle: UInt16, connection: UInt64)
    /// The host closed or lost its controller: every waiting sender gives up.
    case hostClosed
}

/// What `ACLFlowMachine` asks the host to do, in the order given.
package enum ACLFlowAction: Sendable, Hashable {
    /// The sender has the connection's send turn.
    case grantTurn(ACLFlowMachine.Sender)
    /// The connection ended while the sender waited for its turn.
    case refuseTurn(ACLFlowMachine.Sender)
    /// The sender has a credit: send one ACL packet.
    case grantCredit(ACLFlowMachine.Sender)
    /// No credit will come: the connection (or the host) ended, or the wait timed out.
    case refuseCredit(ACLFlowMachine.Sender, handle: UInt16, timedOut: Bool)
    /// Report `.creditTimedOut(sender)` after the host's credit timeout.
    case startCreditTimer(ACLFlowMachine.Sender)
    case cancelCreditTimer(ACLFlowMachine.Sender)
}
