import DFUGATT

/// Requests, their turns, timers and cancellation.
extension ATTClientMachine {
    mutating func issue(_ request: QueuedRequest, at now: Duration) -> [ATTClientAction] {
        if let endedWith { return [.completeRequest(request.id, .failure(endedWith))] }
        queue.append(request)
        return sendNextIfIdle(at: now)
    }

    /// Sends the oldest queued request when none is outstanding. Checked against ATT_MTU at its
    /// turn, not when issued: an MTU exchange ahead of it may have changed it.
    mutating func sendNextIfIdle(at now: Duration) -> [ATTClientAction] {
        var actions: [ATTClientAction] = []
        while outstanding == nil, endedWith == nil, !queue.isEmpty {
            let next = queue.removeFirst()
            guard next.pdu.count <= mtu else {
                actions.append(.completeRequest(next.id, .failure(failure(
                    .unsupported, "\(next.opcode) of \(next.pdu.count) bytes exceeds ATT_MTU \(mtu)"))))
                continue
            }
            outstanding = OutstandingRequest(id: next.id, opcode: next.opcode, pdu: next.pdu)
            actions += [.startTimer(next.id, deadline: now + transactionTimeout), .send(next.pdu, request: next.id)]
        }
        return actions
    }

    /// Ends the outstanding request with `result` and sends the next one.
    mutating func finishOutstanding(with result: Result<[UInt8], GATTError>, at now: Duration) -> [ATTClientAction] {
        guard let request = outstanding else { return [] }
        outstanding = nil
        return [.cancelTimer(request.id), .completeRequest(request.id, result)] + sendNextIfIdle(at: now)
    }

    mutating func sendFailed(_ id: ID, error: GATTError, at now: Duration) -> [ATTClientAction] {
        guard outstanding?.id == id else { return [] }
        return finishOutstanding(with: .failure(stamped(error)), at: now)
    }

    mutating func cancel(_ id: ID, at now: Duration) -> [ATTClientAction] {
        if let request = outstanding, request.id == id {
            outstanding = nil
            let error = failure(.disconnected, "\(request.opcode) cancelled before its answer")
            return [.cancelTimer(id), .completeRequest(id, .failure(error))]
                + end(with: failure(.disconnected, "the ATT bearer was closed after \(request.opcode) was cancelled"))
        }
        if let index = queue.firstIndex(where: { $0.id == id }) {
            // Never sent: nothing to wait for, the bearer stays usable.
            let request = queue.remove(at: index)
            return [.completeRequest(id, .failure(failure(.disconnected, "\(request.opcode) cancelled before it was sent")))]
        }
        if let index = valueWaits.firstIndex(of: id) {
            valueWaits.remove(at: index)
            return [.cancelTimer(id), .completeValueWait(id, .success(nil))]
        }
        return []
    }

    mutating func timerFired(_ id: ID) -> [ATTClientAction] {
        if let request = outstanding, request.id == id {
            outstanding = nil
            let error = failure(.timeout, "no answer to \(request.opcode) within \(transactionTimeout) "
                                          + "(ATT transaction timeout); the ATT bearer was closed, reconnect to go on")
            return [.completeRequest(id, .failure(error))]
                + end(with: failure(.disconnected, "the ATT bearer was closed after \(request.opcode) timed out"))
        }
        if let index = valueWaits.firstIndex(of: id) {
            valueWaits.remove(at: index)
            return [.completeValueWait(id, .success(nil))]
        }
        return []
    }

    /// Marks the client ended, fails everything waiting and closes the bearer; nothing more is
    /// sent. Only the first end counts.
    mutating func end(with error: GATTError) -> [ATTClientAction] {
        guard endedWith == nil else { return [] }
        let error = stamped(error)
        endedWith = error
        var actions: [ATTClientAction] = []
        if let request = outstanding {
            outstanding = nil
            actions += [.cancelTimer(request.id), .completeRequest(request.id, .failure(error))]
        }
        actions += queue.map { .completeRequest($0.id, .failure(error)) }
        queue.removeAll()
        for id in valueWaits { actions += [.cancelTimer(id), .completeValueWait(id, .failure(error))] }
        valueWaits.removeAll()
        return actions + [.closeBearer]
    }
}
