/// One pairing of a connection as a pure state machine: the Security Manager exchange of LE
/// legacy pairing (`LegacyPairing`, Just Works) within a time limit, then LE Enable Encryption
/// with the short-term key and the Encryption Change that confirms it. Events in, actions out;
/// `HCIHost.pair` drives it over L2CAP CID 6 and the command flow.
///
/// Every failure is `.pairingFailed` with the reason (the device refused, a confirm value did not
/// match, no answer in time, the caller cancelled while waiting for the device, encryption
/// refused), except the errors of the link itself (a failed send, a refused or unanswered
/// command, a disconnection), which pass as they are. Once over, later events are ignored.
package struct PairingFlowMachine: Sendable {
    enum State: Sendable {
        /// Not started.
        case idle(LegacyPairing)
        /// Pairing Request sent; the device's PDUs go to `pairing`.
        case exchanging(LegacyPairing)
        /// LE Enable Encryption sent (or being sent); the Encryption Change is awaited.
        case encrypting
        /// Over, encrypted or failed.
        case finished
    }

    package let handle: UInt16
    /// The limit on the whole pairing (the Security Manager's 30 s by default).
    package let timeout: Duration
    private(set) var state: State

    package init(handle: UInt16, timeout: Duration, pairing: LegacyPairing) {
        self.handle = handle
        self.timeout = timeout
        state = .idle(pairing)
    }

    package var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    package mutating func handle(_ event: PairingFlowEvent) -> [PairingFlowAction] {
        switch (state, event) {
        case (.idle(var pairing), .started):
            let request = pairing.start()
            state = .exchanging(pairing)
            return [.send(request), .startTimer(after: timeout)]
        case (.exchanging(var pairing), .received(let pdu)):
            let action = pairing.handle(pdu)
            state = .exchanging(pairing)
            switch action {
            case .none:
                return []
            case let .send(bytes):
                return [.send(bytes)]
            case let .fail(reason, reply):
                return (reply.map { [.send($0)] } ?? []) + finish(failure(reason))
            case let .encrypt(shortTermKey):
                state = .encrypting
                return [.extendTimer(atLeast: .seconds(1)), .enableEncryption(shortTermKey: shortTermKey)]
            }
        case (.exchanging, .timerFired):
            return finish(failure("the device did not answer within \(timeout.secondsText) (Security Manager timeout)"))
        case (.exchanging, .cancelled):
            return finish(failure("cancelled while waiting for the device"))
        case let (.encrypting, .encryptionChanged(change)) where change.handle == handle:
            guard change.status == .success, change.encryptionEnabled != 0 else {
                return finish(failure("the controller did not encrypt the link: \(change.status)"))
            }
            state = .finished
            return [.succeed]
        case (.encrypting, .timerFired):
            return finish(failure("no \(EncryptionChangeEvent.name) event arrived"))
        case let (.exchanging, .sendFailed(error)), let (.encrypting, .encryptionCommandFailed(error)),
             let (.exchanging, .linkEnded(error)), let (.encrypting, .linkEnded(error)):
            return finish(error)
        case (.idle, .linkEnded(let error)):
            return finish(error)
        default:
            // Out of turn or late: an encrypting link no longer reads the device's PDUs, and its
            // caller's cancellation waits for the controller's answer.
            return []
        }
    }

    private func failure(_ detail: String) -> HCIError {
        HCIError(.pairingFailed(handle: handle), detail: detail)
    }

    private mutating func finish(_ error: HCIError) -> [PairingFlowAction] {
        state = .finished
        return [.fail(error)]
    }
}
