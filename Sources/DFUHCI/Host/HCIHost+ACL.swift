extension HCIHost {
    /// Sends one L2CAP basic frame on `channel` of connection `handle`: fragments it to the
    /// controller's ACL buffer length and takes one credit per fragment, waiting (at most
    /// `creditTimeout` per fragment) while the controller has no free buffer. Frames on one
    /// connection never interleave. `connection` (the channel's) pins the connection: if it
    /// ends meanwhile, nothing more goes out, even when a new connection gets the same handle.
    public func sendL2CAP(_ payload: [UInt8], channel: L2CAPChannelID, handle: UInt16,
                          connection: UInt64? = nil) async throws(HCIError) {
        try checkOpen()
        guard let id = connection ?? connections[handle]?.id, connections[handle]?.id == id, let controller else {
            throw disconnectedError(handle)
        }
        let frame = L2CAPBasicFrame(channel: channel, payload: payload).bytes
        let fragments = ACLFragmenter.fragments(of: frame, handle: handle, maximumLength: controller.aclPacketLength)
        try await acquireSendTurn(handle, connection: id)
        defer { releaseSendTurn(handle, connection: id) }
        for fragment in fragments {
            try await acquireCredit(handle)
            guard connections[handle]?.id == id else {
                flow.complete(1, on: handle)
                throw disconnectedError(handle)
            }
            do {
                try await pipe.send(fragment.packet)
            } catch {
                flow.complete(1, on: handle)
                throw error
            }
        }
    }

    func disconnectedError(_ handle: UInt16) -> HCIError {
        closedError ?? endedConnections[handle]
            ?? HCIError(.disconnected(handle: handle, reason: .unknownConnectionIdentifier), detail: "no such connection")
    }

    private func acquireSendTurn(_ handle: UInt16, connection id: UInt64) async throws(HCIError) {
        guard connections[handle]?.id == id else { throw disconnectedError(handle) }
        if connections[handle]!.sendGate.tryAcquire() { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            connections[handle]?.sendGate.enqueue(continuation)
        }
        // Woken either with the turn, or because the connection went away (perhaps replaced by
        // another on the same handle, whose turn this is not).
        guard connections[handle]?.id == id else { throw disconnectedError(handle) }
    }

    private func releaseSendTurn(_ handle: UInt16, connection id: UInt64) {
        guard connections[handle]?.id == id else { return }
        connections[handle]?.sendGate.release()
    }

    /// Takes an ACL credit, in FIFO order with other senders.
    private func acquireCredit(_ handle: UInt16) async throws(HCIError) {
        try checkOpen()
        guard connections[handle] != nil else { throw disconnectedError(handle) }
        if creditWaiters.isEmpty, flow.consume(on: handle) { return }
        let id = makeIdentifier()
        let limit = configuration.creditTimeout
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, HCIError>, Never>) in
            var waiter = CreditWaiter(id: id, handle: handle, continuation: continuation)
            waiter.timeoutTask = Task { [weak self] in
                try? await Task.sleep(for: limit)
                guard !Task.isCancelled else { return }
                await self?.failCreditWaiter(id, HCIError(.noACLCredits(handle: handle),
                                                          detail: "within \(limit.secondsText) (\(self?.flow.capacity ?? 0) buffers)"))
            }
            creditWaiters.append(waiter)
        }
        try result.get()
    }

    private func failCreditWaiter(_ id: UInt64, _ error: HCIError) {
        guard let index = creditWaiters.firstIndex(where: { $0.id == id }) else { return }
        creditWaiters.remove(at: index).continuation.resume(returning: .failure(error))
    }

    /// Hands free credits to waiting senders, in order; senders of closed connections fail.
    func grantCredits() {
        while let first = creditWaiters.first {
            if connections[first.handle] == nil {
                creditWaiters.removeFirst()
                first.timeoutTask?.cancel()
                first.continuation.resume(returning: .failure(disconnectedError(first.handle)))
                continue
            }
            guard flow.consume(on: first.handle) else { return }
            creditWaiters.removeFirst()
            first.timeoutTask?.cancel()
            first.continuation.resume(returning: .success(()))
        }
    }

    /// Credits the host holds now (for diagnostics and tests).
    public var availableCredits: Int { flow.available }

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
                connections[packet.handle]?.channel.inbox.deliver(frame.payload)
            case .leSignaling:
                handleSignaling(frame.payload, handle: packet.handle)
            case .securityManager:
                connections[packet.handle]?.securityInbox.deliver(frame.payload)
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
