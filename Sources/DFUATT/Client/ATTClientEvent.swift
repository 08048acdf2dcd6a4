import DFUGATT

/// What happens to an ATT client, as `ATTClientMachine` takes it.
package enum ATTClientEvent: Sendable, Equatable {
    /// A caller asks for request `pdu` (opcode `opcode`) to be sent and answered.
    case requestIssued(ATTClientMachine.ID, opcode: ATTOpcode, pdu: [UInt8])
    /// The bearer refused the request's PDU (`send` threw).
    case requestSendFailed(ATTClientMachine.ID, GATTError)
    /// A caller waits for the next notification or indication until `deadline`.
    case valueWaitStarted(ATTClientMachine.ID, until: Duration)
    /// The caller of a request or a wait stopped waiting (its task was cancelled: Ctrl-C).
    case cancelled(ATTClientMachine.ID)
    /// A timer started by `.startTimer` reached its deadline.
    case timerFired(ATTClientMachine.ID)
    /// One ATT PDU from the peer, opcode first.
    case pduReceived([UInt8])
    /// The bearer stopped delivering PDUs (the link dropped or the bearer was closed).
    case bearerEnded(GATTError)
    /// This side closes the bearer.
    case closed
}

/// What `ATTClientMachine` asks its driver to do, in the order given.
package enum ATTClientAction: Sendable, Equatable {
    /// Send `pdu` on the bearer. When it carries a request (`request` set) and the bearer
    /// refuses it, report `.requestSendFailed`; other sends (confirmations, answers to the
    /// peer's requests) may fail silently, the link's end comes as `.bearerEnded`.
    case send([UInt8], request: ATTClientMachine.ID?)
    /// Report `.timerFired(id)` once the clock reaches `deadline`.
    case startTimer(ATTClientMachine.ID, deadline: Duration)
    case cancelTimer(ATTClientMachine.ID)
    /// The request's answer: the response PDU's bytes, or why there is none.
    case completeRequest(ATTClientMachine.ID, Result<[UInt8], GATTError>)
    /// The wait's value: the next one received, nil at its deadline or when cancelled, or why
    /// there will be none.
    case completeValueWait(ATTClientMachine.ID, Result<ATTReceivedValue?, GATTError>)
    /// Close the bearer (after a timeout, a protocol violation, a cancelled transaction, or
    /// on request); nothing more is sent on it.
    case closeBearer
}
