extension HCIHost {
    /// Pairs with the peer of `handle` and encrypts the link: LE legacy pairing with Just Works
    /// (`LegacyPairing`) over L2CAP CID 6, then LE Enable Encryption with the STK and the
    /// Encryption Change that confirms it. Nothing is bonded: the next connection pairs again.
    /// The connection is `.encrypting` meanwhile (a second `pair` is refused), then `.encrypted`.
    /// - Throws: `.pairingFailed` with the reason (the device refused, a confirm value did not
    ///   match, no answer within `timeout`, the calling task cancelled, encryption refused), or
    ///   `.disconnected`.
    package func pair(_ handle: UInt16, timeout: Duration = .seconds(30)) async throws(HCIError) {
        guard let state = connections[handle] else { throw disconnectedError(handle) }
        for case let .refuse(error) in runLifecycle(.encryptionStarted(handle: handle)) { throw error }
        var encrypted = false
        defer { runLifecycle(.encryptionEnded(handle: handle, enabled: encrypted)) }
        func failure(_ detail: String) -> HCIError { HCIError(.pairingFailed(handle: handle), detail: detail) }
        var random = SystemRandomNumberGenerator()
        var machine = LegacyPairing(
            initiator: ownAddress, initiatorAddressType: HCIAddressType.randomDevice.rawValue,
            responder: state.info.peerAddress, responderAddressType: state.info.peerAddressType.rawValue & 1,
            random: (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) })
        let inbox = state.securityInbox
        try await sendL2CAP(machine.start(), channel: .securityManager, handle: handle)
        let deadline = ContinuousClock.now + timeout
        while true {
            let pdu: [UInt8]
            switch try await inbox.next(until: deadline) {
            case let .element(received):
                pdu = received
            case .end:
                throw inbox.failure ?? disconnectedError(handle)
            case .gaveUp where Task.isCancelled:
                throw failure("cancelled while waiting for the device")
            case .gaveUp:
                throw failure("the device did not answer within \(timeout.secondsText) (Security Manager timeout)")
            }
            switch machine.handle(pdu) {
            case .none:
                continue
            case let .send(bytes):
                try await sendL2CAP(bytes, channel: .securityManager, handle: handle)
            case let .fail(reason, reply):
                if let reply { try? await sendL2CAP(reply, channel: .securityManager, handle: handle) }
                throw failure(reason)
            case let .encrypt(shortTermKey):
                try await encrypt(handle, key: shortTermKey, within: ContinuousClock.now.duration(to: deadline), failure)
                encrypted = true
                return
            }
        }
    }

    private func encrypt(_ handle: UInt16, key: [UInt8], within limit: Duration,
                         _ failure: (String) -> HCIError) async throws(HCIError) {
        let id = expectEvent { event in
            if case let .encryptionChange(change) = event { return change.handle == handle }
            return false
        }
        try await execute(LEEnableEncryptionCommand(handle: handle, longTermKey: key))
        let event = try await waitForEvent(id, timeout: max(limit, .seconds(1)),
                                           timeoutError: failure("no \(EncryptionChangeEvent.name) event arrived"))
        guard case let .encryptionChange(change) = event, change.status == .success, change.encryptionEnabled != 0 else {
            if case let .encryptionChange(change) = event {
                throw failure("the controller did not encrypt the link: \(change.status)")
            }
            throw failure("the controller did not encrypt the link")
        }
    }
}
