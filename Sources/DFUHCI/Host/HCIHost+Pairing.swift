extension HCIHost {
    /// Pairs with the peer of `handle` and encrypts the link: LE legacy pairing with Just Works
    /// (`LegacyPairing`) over L2CAP CID 6, then LE Enable Encryption with the STK and the
    /// Encryption Change that confirms it. Nothing is bonded: the next connection pairs again.
    /// The connection is `.encrypting` meanwhile (a second `pair` is refused), then `.encrypted`.
    /// - Throws: `.pairingFailed` with the reason (the device refused, a confirm value did not
    ///   match, no answer within `timeout`, encryption refused), or `.disconnected`.
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
            let next = await Self.next(from: inbox, within: ContinuousClock.now.duration(to: deadline))
            guard let received = next else {
                throw failure("the device did not answer within \(timeout.secondsText) (Security Manager timeout)")
            }
            guard let pdu = received else { throw inbox.end ?? disconnectedError(handle) }
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

    /// The next PDU from `inbox`: `.some(nil)` when the link ended, nil after `limit`.
    private static func next(from inbox: PDUInbox, within limit: Duration) async -> [UInt8]?? {
        await withTaskGroup(of: [UInt8]??.self) { group in
            group.addTask { .some(await inbox.receive()) }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
