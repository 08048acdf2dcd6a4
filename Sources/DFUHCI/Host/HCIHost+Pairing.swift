import DFUGATT

extension HCIHost {
    /// Pairs with the peer of `handle` and encrypts the link: LE legacy pairing with Just Works
    /// (`LegacyPairing`) over L2CAP CID 6, then LE Enable Encryption with the STK and the
    /// Encryption Change that confirms it (`PairingFlowMachine`). Nothing is bonded: the next
    /// connection pairs again. The connection is `.encrypting` meanwhile (a second `pair` is
    /// refused), then `.encrypted`.
    /// - Throws: `.pairingFailed` with the reason (the device refused, a confirm value did not
    ///   match, no answer within `timeout`, the calling task cancelled, encryption refused), or
    ///   `.disconnected`.
    package func pair(_ handle: UInt16, timeout: Duration = .seconds(30)) async throws(HCIError) {
        guard let state = connections[handle] else { throw disconnectedError(handle) }
        for case let .refuse(error) in runLifecycle(.encryptionStarted(handle: handle)) { throw error }
        var encrypted = false
        defer { runLifecycle(.encryptionEnded(handle: handle, enabled: encrypted)) }
        var random = SystemRandomNumberGenerator()
        var machine = PairingFlowMachine(handle: handle, timeout: timeout, pairing: LegacyPairing(
            initiator: ownAddress, initiatorAddressType: HCIAddressType.randomDevice.rawValue,
            responder: state.info.peerAddress, responderAddressType: state.info.peerAddressType.rawValue & 1,
            random: (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }))
        let inbox = state.securityInbox
        var deadline = ContinuousClock.now + timeout
        var event = PairingFlowEvent.started
        while true {
            var next: [PairingFlowEvent] = []
            for action in machine.handle(event) {
                switch action {
                case let .send(bytes):
                    do {
                        try await sendL2CAP(bytes, channel: .securityManager, handle: handle)
                    } catch {
                        next.append(.sendFailed(error))
                    }
                case let .startTimer(duration):
                    deadline = ContinuousClock.now + duration
                case let .extendTimer(duration):
                    deadline = max(deadline, ContinuousClock.now + duration)
                case let .enableEncryption(key):
                    next.append(await enableEncryption(handle, key: key, until: deadline))
                case .succeed:
                    encrypted = true
                    return
                case let .fail(error):
                    throw error
                }
            }
            if let first = next.first {
                // One event at a time: the machine ignores the rest once over.
                event = first
                continue
            }
            switch try? await inbox.next(until: deadline) {
            case let .element(pdu)?:
                event = .received(pdu)
            case .end?, nil:
                event = .linkEnded(inbox.failure ?? disconnectedError(handle))
            case .gaveUp? where Task.isCancelled:
                event = .cancelled
            case .gaveUp?:
                event = .timerFired
            }
        }
    }

    /// LE Enable Encryption, then the connection's Encryption Change (waited for through the
    /// calling task's cancellation), as the pairing machine's next event.
    private func enableEncryption(_ handle: UInt16, key: [UInt8],
                                  until deadline: ContinuousClock.Instant) async -> PairingFlowEvent {
        let id = expectEvent { event in
            if case let .encryptionChange(change) = event { return change.handle == handle }
            return false
        }
        do {
            try await execute(LEEnableEncryptionCommand(handle: handle, longTermKey: key))
        } catch {
            cancelExpectation(id)
            return .encryptionCommandFailed(error)
        }
        let missing = HCIError(.eventTimeout(event: EncryptionChangeEvent.name))
        do {
            let event = try await waitForEvent(id, timeout: ContinuousClock.now.duration(to: deadline),
                                               timeoutError: missing)
            guard case let .encryptionChange(change) = event else { return .timerFired }
            return .encryptionChanged(change)
        } catch where error == missing {
            return .timerFired
        } catch {
            return .linkEnded(error)
        }
    }
}
