import DFUGATT

/// PDUs from the peer, and the values waits take.
extension ATTClientMachine {
    /// Values that arrived before the bearer ended are handed out before the ending error.
    mutating func startValueWait(_ id: ID, until deadline: Duration, at now: Duration) -> [ATTClientAction] {
        if let value = values.popFirst() { return [.completeValueWait(id, .success(value))] }
        if let endedWith { return [.completeValueWait(id, .failure(endedWith))] }
        guard now < deadline else { return [.completeValueWait(id, .success(nil))] }
        valueWaits.append(id)
        return [.startTimer(id, deadline: deadline)]
    }

    mutating func receive(_ pdu: [UInt8], at now: Duration) -> [ATTClientAction] {
        // After the end nothing is answered (3.3.3), and nothing waits any more.
        guard endedWith == nil else { return [] }
        let decoded: ATTPDU
        do {
            decoded = try ATTPDU(decoding: pdu)
        } catch {
            return receiveMalformed(pdu, error: error)
        }
        let opcode = decoded.opcode
        switch decoded {
        case let .handleValueNotification(notification):
            return deliver(ATTReceivedValue(kind: .notification, attributeHandle: notification.attributeHandle,
                                            attributeValue: notification.attributeValue, receivedAt: now))
        case let .handleValueIndication(indication):
            return deliver(ATTReceivedValue(kind: .indication, attributeHandle: indication.attributeHandle,
                                            attributeValue: indication.attributeValue, receivedAt: now))
                + [.send(ATTHandleValueConfirmation().bytes, request: nil)]
        case let .exchangeMTURequest(request):
            let ours = max(Self.defaultLEMTU, bearerMTU)
            mtu = max(Self.defaultLEMTU, min(ours, Int(request.clientRxMTU)))
            return [.send(ATTExchangeMTUResponse(serverRxMTU: UInt16(clamping: ours)).bytes, request: nil)]
        case let .errorResponse(response):
            guard let request = outstanding else {
                return violation("\(opcode) for \(response.requestOpcodeInError) with no request outstanding")
            }
            guard response.requestOpcodeInError == request.opcode else {
                return violation("\(opcode) names \(response.requestOpcodeInError) but \(request.opcode) is outstanding")
            }
            let error = failure(.attError(code: response.errorCode.rawValue, handle: response.attributeHandleInError),
                                "\(request.opcode) on handle \(hexHandle(response.attributeHandleInError)) failed: "
                                + "\(response.errorCode)")
            return finishOutstanding(with: .failure(error), at: now)
        default:
            if Self.isResponse(opcode) {
                guard let request = outstanding else { return violation("\(opcode) with no request outstanding") }
                guard request.opcode.responseOpcode == opcode else {
                    return violation("\(opcode) does not answer the outstanding \(request.opcode)")
                }
                if case let .exchangeMTUResponse(response) = decoded,
                   let proposal = try? ATTExchangeMTURequest(decoding: request.pdu) {
                    mtu = max(Self.defaultLEMTU, min(Int(proposal.clientRxMTU), Int(response.serverRxMTU)))
                }
                return finishOutstanding(with: .success(pdu), at: now)
            }
            if opcode.isRequest {
                let answer = ATTErrorResponse(requestOpcodeInError: opcode, attributeHandleInError: 0,
                                              errorCode: .requestNotSupported)
                return [.send(answer.bytes, request: nil)]
            }
            // A command or confirmation this client does not act on.
            droppedPDUCount += 1
            return []
        }
    }

    mutating func receiveMalformed(_ pdu: [UInt8], error: ATTDecodingError) -> [ATTClientAction] {
        guard let first = pdu.first else {
            droppedPDUCount += 1
            return []
        }
        let opcode = ATTOpcode(first)
        if Self.isResponse(opcode), outstanding != nil {
            return violation("the peer answered with a malformed PDU: \(error)")
        }
        if opcode.isRequest {
            let answer = ATTErrorResponse(requestOpcodeInError: opcode, attributeHandleInError: 0, errorCode: .invalidPDU)
            return [.send(answer.bytes, request: nil)]
        }
        droppedPDUCount += 1
        return []
    }

    /// The peer broke the protocol: the outstanding request fails and the bearer ends.
    mutating func violation(_ detail: String) -> [ATTClientAction] {
        droppedPDUCount += 1
        return end(with: failure(.disconnected, "ATT protocol violation: \(detail); the ATT bearer was closed"))
    }

    /// To the oldest wait, or kept until one comes.
    mutating func deliver(_ value: ATTReceivedValue) -> [ATTClientAction] {
        guard !valueWaits.isEmpty else {
            values.append(value)
            return []
        }
        let id = valueWaits.removeFirst()
        return [.cancelTimer(id), .completeValueWait(id, .success(value))]
    }

    static func isResponse(_ opcode: ATTOpcode) -> Bool {
        opcode == .errorResponse || (opcode.rawValue > 0 && ATTOpcode(opcode.rawValue - 1).isRequest)
    }
}
