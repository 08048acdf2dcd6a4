import DFUGATT

extension HCIHost {
    /// Packets sent on connection `handle` that the controller has not reported completed.
    package func packetsInController(on handle: UInt16) -> Int {
        acl.flow.outstanding(on: handle)
    }

    /// Sends one L2CAP basic frame on `channel` of connection `handle`: fragments it to the
    /// controller's ACL buffer length and takes one credit per fragment, waiting (at most
    /// `creditTimeout` per fragment) while the controller has no free buffer. Frames on one
    /// connection never interleave. `connection` (the channel's) pins the connection: if it
    /// ends meanwhile, nothing more goes out, even when a new connection gets the same handle.
    /// The turns and credits are `ACLFlowMachine`'s; this only waits for its answers.
    package func sendL2CAP(_ payload: [UInt8], channel: L2CAPChannelID, handle: UInt16,
                          connection: UInt64? = nil) async throws(HCIError) {
        try checkOpen()
        guard let id = connection ?? connections[handle]?.id, connections[handle]?.id == id, let controller else {
            throw disconnectedError(handle)
        }
        let frame = L2CAPBasicFrame(channel: channel, payload: payload).bytes
        let fragments = ACLFragmenter.fragments(of: frame, handle: handle, maximumLength: controller.aclPacketLength)
        let sender = makeIdentifier()
        try await acquireSendTurn(sender, handle: handle, connection: id)
        defer { runACL(.frameFinished(sender, connection: id)) }
        for fragment in fragments {
            try await acquireCredit(sender, handle: handle)
            guard connections[handle]?.id == id else {
                runACL(.creditUnused(handle: handle))
                throw disconnectedError(handle)
            }
            do {
                try await pipe.send(fragment.packet)
            } catch {
                runACL(.creditUnused(handle: handle))
                throw error
            }
        }
    }

    func disconnectedError(_ handle: UInt16) -> HCIError {
        closedError ?? lifecycle.endReason(handle)
            ?? HCIError(.disconnected(handle: handle, reason: .unknownConnectionIdentifier), detail: "no such connection")
    }

    private func acquireSendTurn(_ sender: UInt64, handle: UInt16, connection id: UInt64) async throws(HCIError) {
        guard connections[handle]?.id == id else { throw disconnectedError(handle) }
        let turn = AsyncBuffer<Bool, Never>()
        aclTurns[sender] = turn
        runACL(.frameStarted(sender, connection: id))
        let granted = await turn.next() ?? false
        // Refused when the connection went away (perhaps replaced by another on the same
        // handle, whose turn this is not).
        guard granted, connections[handle]?.id == id else { throw disconnectedError(handle) }
    }

    /// Takes an ACL credit, in FIFO order with other senders.
    private func acquireCredit(_ sender: UInt64, handle: UInt16) async throws(HCIError) {
        try checkOpen()
        guard connections[handle] != nil else { throw disconnectedError(handle) }
        let credit = AsyncBuffer<Result<Void, HCIError>, Never>()
        aclCredits[sender] = credit
        runACL(.creditRequested(sender, handle: handle))
        try await (credit.next() ?? .failure(disconnectedError(handle))).get()
    }

    /// Feeds one event to the ACL flow machine and runs its actions (none suspends).
    func runACL(_ event: ACLFlowEvent) {
        for action in acl.handle(event) {
            switch action {
            case let .grantTurn(sender):
                aclTurns.removeValue(forKey: sender)?.send(true)
            case let .refuseTurn(sender):
                aclTurns.removeValue(forKey: sender)?.send(false)
            case let .grantCredit(sender):
                aclCredits.removeValue(forKey: sender)?.send(.success(()))
            case let .refuseCredit(sender, handle, timedOut):
                let limit = configuration.creditTimeout
                aclCredits.removeValue(forKey: sender)?.send(.failure(timedOut
                    ? HCIError(.noACLCredits(handle: handle), detail: "within \(limit.secondsText) (\(acl.flow.capacity) buffers)")
                    : disconnectedError(handle)))
            case let .startCreditTimer(sender):
                let limit = configuration.creditTimeout
                creditTimers.start(sender, after: limit) { [weak self] in await self?.creditTimerFired(sender) }
            case let .cancelCreditTimer(sender):
                creditTimers.cancel(sender)
            }
        }
    }

    private func creditTimerFired(_ sender: UInt64) {
        guard creditTimers.fired(sender) else { return }
        runACL(.creditTimedOut(sender))
    }

    /// Credits the host holds now (for diagnostics and tests).
    package var availableCredits: Int { acl.availableCredits }

    func handleACL(_ packet: ACLPacket) {
        guard connections[packet.handle] != nil else {
            noteDiscarded("ACL data for unknown connection 0x\(hexWord(packet.handle))")
            return
        }
        switch connections[packet.handle]!.reassembler.append(packet) {
        case .incomplete:
            return
        case let .discarded(reason):
            noteDiscarded("connection 0x\(hexWord(packet.handle)): \(reason)")
        case let .frame(bytes):
            guard let frame = try? L2CAPBasicFrame(bytes: bytes) else {
                noteDiscarded("connection 0x\(hexWord(packet.handle)): malformed L2CAP frame")
                return
            }
            switch frame.channel {
            case .att:
                connections[packet.handle]?.channel.inbox.send(frame.payload)
            case .leSignaling:
                handleSignaling(frame.payload, handle: packet.handle)
            case .securityManager:
                connections[packet.handle]?.securityInbox.send(frame.payload)
            default:
                noteDiscarded("connection 0x\(hexWord(packet.handle)): frame on \(frame.channel) ignored")
            }
        }
    }

    private func noteDiscarded(_ reason: String) {
        discardedFragmentCount += 1
        lastDiscardedFragment = reason
    }
}
