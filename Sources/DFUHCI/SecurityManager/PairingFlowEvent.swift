/// What happens to one pairing, as `PairingFlowMachine` takes it.
package enum PairingFlowEvent: Sendable, Hashable {
    /// The caller asks to pair.
    case started
    /// A Security Manager PDU from the device (L2CAP CID 6).
    case received([UInt8])
    /// Sending a Security Manager PDU failed.
    case sendFailed(HCIError)
    /// LE Enable Encryption failed (refused, unanswered, or the host closed).
    case encryptionCommandFailed(HCIError)
    /// The controller's Encryption Change for the connection.
    case encryptionChanged(EncryptionChangeEvent)
    /// The pairing's time ran out.
    case timerFired
    /// The caller's task was cancelled.
    case cancelled
    /// The link or the host ended: the pairing fails with `error`.
    case linkEnded(HCIError)
}

/// What `PairingFlowMachine` asks the host to do, in the order given.
package enum PairingFlowAction: Sendable, Hashable {
    /// Send a Security Manager PDU (a failure is reported as `.sendFailed`, except for the
    /// Pairing Failed sent as the pairing ends).
    case send([UInt8])
    /// Report `.timerFired` after `duration`.
    case startTimer(after: Duration)
    /// Let the timer run at least `duration` more from now (the Encryption Change comes within a
    /// few connection events).
    case extendTimer(atLeast: Duration)
    /// Send LE Enable Encryption with the short-term key, then wait for the Encryption Change
    /// (`.encryptionChanged`, or `.encryptionCommandFailed`).
    case enableEncryption(shortTermKey: [UInt8])
    /// The pairing is over: the link is encrypted.
    case succeed
    /// The pairing is over and failed.
    case fail(HCIError)
}
