import DFUGATT
import Synchronization

/// The client side of the Attribute Protocol over one bearer (Core spec Vol 3, Part F): a thin
/// driver of `ATTClientMachine`, which holds the rules; this actor reads the bearer, runs the
/// machine's timers on `clock`, sends what it says and hands answers to the callers.
///
/// - One outstanding request: a request waits its turn until the previous one got its
///   response, its Error Response, or timed out ("sequential protocol", 3.3.2). Commands
///   (Write Command) and confirmations do not wait.
/// - A response is matched to the outstanding request by opcode, an Error Response by its
///   Request Opcode In Error. A response that matches nothing or is malformed ends the
///   bearer: afterwards the state of the transaction is unknown.
/// - Transaction timeout (3.3.3): a request not answered within `transactionTimeout`
///   (30 s by default) fails with `.timeout`, and the bearer is closed, as "no more ATT
///   PDUs shall be sent" on it; reconnect to go on.
/// - Notifications and indications are kept in arrival order until asked for; indications
///   are confirmed as they arrive. An Exchange MTU Request from the peer is answered;
///   other requests from the peer get "Request Not Supported" (this client has no server).
///
/// The client owns its bearer: nothing else may send requests on it.
package actor ATTClient {
    /// The ATT_MTU before any exchange on an LE bearer (Vol 3, Part F, 3.2.8).
    package static let defaultLEMTU = ATTClientMachine.defaultLEMTU

    package nonisolated let bearer: any ATTBearer
    package nonisolated let clock: any ATTClock
    package nonisolated let transactionTimeout: Duration
    /// Put in front of every error ("C0:11:22:33:44:55").
    package nonisolated let address: String?

    private var machine: ATTClientMachine
    /// The machine's ATT_MTU, readable without awaiting the actor.
    private let negotiatedMTU = Mutex(ATTClient.defaultLEMTU)
    private var mtuExchanged = false
    private var nextIdentifier: UInt64 = 0
    private var reader: Task<Void, Never>?
    private var timers: [UInt64: Task<Void, Never>] = [:]
    /// Where the machine's answers meet their callers, by request or wait: made before the
    /// event that may answer at once, taken when the answer comes.
    private var responses: [UInt64: AsyncBuffer<Result<[UInt8], GATTError>, Never>] = [:]
    private var values: [UInt64: AsyncBuffer<Result<ATTReceivedValue?, GATTError>, Never>] = [:]

    package init(bearer: any ATTBearer, address: String? = nil, transactionTimeout: Duration = .seconds(30),
                clock: any ATTClock = ContinuousATTClock()) {
        self.bearer = bearer
        self.address = address
        self.transactionTimeout = transactionTimeout
        self.clock = clock
        machine = ATTClientMachine(bearerMTU: bearer.mtu, transactionTimeout: transactionTimeout, address: address)
    }

    /// The current ATT_MTU: 23 until an MTU exchange, then min(client Rx MTU, server Rx MTU).
    package nonisolated var mtu: Int { negotiatedMTU.withLock { $0 } }

    /// Requests waiting for their turn behind the outstanding one.
    package var queuedRequestCount: Int { machine.queuedRequestCount }

    /// Whether a request has been sent and not answered yet.
    package var hasOutstandingRequest: Bool { machine.hasOutstandingRequest }

    /// PDUs from the peer that were malformed or unexpected and were dropped.
    package var droppedPDUCount: Int { machine.droppedPDUCount }

    /// Values received and not yet returned by `nextValue(until:)`.
    package var bufferedValueCount: Int { machine.bufferedValueCount }

    /// Starts reading PDUs from the bearer (every other method does this too), so that
    /// indications are confirmed before the first request.
    package func start() { startReadingIfNeeded() }

    // MARK: - Requests

    /// Sends `request` once no other request is outstanding and returns the server's response.
    /// An Error Response throws `.attError` with its code and handle.
    package func request<Request: ATTRequestPDU>(_ request: Request) async throws(GATTError) -> Request.Response {
        let bytes = try await transact(request.bytes, opcode: Request.opcode)
        do {
            return try Request.Response(decoding: bytes)
        } catch {
            throw GATTError(.disconnected, address: address, detail: "\(Request.Response.opcode) is malformed: \(error)")
        }
    }

    /// Exchange MTU (Vol 3, Part G, 4.3.1): proposes the bearer's MTU once per connection and
    /// returns the ATT_MTU now in force (the machine takes it from the response). A server
    /// that does not support it leaves 23.
    @discardableResult
    package func exchangeMTU() async throws(GATTError) -> Int {
        guard !mtuExchanged else { return mtu }
        mtuExchanged = true
        let proposed = UInt16(clamping: max(Self.defaultLEMTU, bearer.mtu))
        do {
            _ = try await request(ATTExchangeMTURequest(clientRxMTU: proposed))
        } catch {
            guard case let .attError(code, _) = error.kind, code == ATTErrorCode.requestNotSupported.rawValue else {
                throw error
            }
            // The server keeps the default ATT_MTU.
        }
        return mtu
    }

    /// Read Request: the value's first ATT_MTU - 1 bytes.
    package func read(handle: UInt16) async throws(GATTError) -> [UInt8] {
        try await request(ATTReadRequest(attributeHandle: handle)).attributeValue
    }

    /// Read Blob Request: up to ATT_MTU - 1 bytes from `offset`.
    package func readBlob(handle: UInt16, offset: UInt16) async throws(GATTError) -> [UInt8] {
        try await request(ATTReadBlobRequest(attributeHandle: handle, valueOffset: offset)).partAttributeValue
    }

    /// Write Request: returns once the server sent its Write Response.
    package func write(handle: UInt16, value: [UInt8]) async throws(GATTError) {
        try checkValueFits(value, what: "Write Request")
        _ = try await request(ATTWriteRequest(attributeHandle: handle, attributeValue: value))
    }

    /// Write Command: returns once the bearer accepted it. It does not wait for an
    /// outstanding request (commands are not transactions).
    package func writeCommand(handle: UInt16, value: [UInt8]) async throws(GATTError) {
        startReadingIfNeeded()
        if let endedWith = machine.endedWith { throw endedWith }
        try checkValueFits(value, what: "Write Command")
        try await send(ATTWriteCommand(attributeHandle: handle, attributeValue: value).bytes)
    }

    // MARK: - Notifications and indications

    /// The oldest notification or indication not yet returned, waiting for one until
    /// `deadline` on `clock`; nil once the deadline passed. Values that arrived before the
    /// bearer closed are returned before the closing error.
    package func nextValue(until deadline: Duration) async throws(GATTError) -> ATTReceivedValue? {
        startReadingIfNeeded()
        let id = makeIdentifier()
        let answer = AsyncBuffer<Result<ATTReceivedValue?, GATTError>, Never>()
        values[id] = answer
        await take(.valueWaitStarted(id, until: deadline))
        let result = await withTaskCancellationHandler {
            await answer.next()
        } onCancel: {
            Task { await self.take(.cancelled(id)) }
        }
        return try (result ?? .failure(unanswered)).get()
    }

    /// Closes the bearer; outstanding and later requests fail with `.disconnected`.
    package func close() async {
        await take(.closed)
    }

    // MARK: - Driving the machine

    private func transact(_ pdu: [UInt8], opcode: ATTOpcode) async throws(GATTError) -> [UInt8] {
        startReadingIfNeeded()
        let id = makeIdentifier()
        let answer = AsyncBuffer<Result<[UInt8], GATTError>, Never>()
        responses[id] = answer
        await take(.requestIssued(id, opcode: opcode, pdu: pdu))
        let result = await withTaskCancellationHandler {
            await answer.next()
        } onCancel: {
            Task { await self.take(.cancelled(id)) }
        }
        return try (result ?? .failure(unanswered)).get()
    }

    /// For an answer buffer that ended empty, which the machine never leaves.
    private var unanswered: GATTError {
        machine.endedWith ?? GATTError(.disconnected, address: address, detail: "the ATT client gave no answer")
    }

    /// Feeds one event to the machine and runs its actions in order. The machine's state
    /// changes before any suspension, so events taken while a send is under way see it.
    private func take(_ event: ATTClientEvent) async {
        let actions = machine.handle(event, at: clock.now)
        negotiatedMTU.withLock { $0 = machine.mtu }
        for action in actions {
            switch action {
            case let .send(pdu, request):
                do {
                    try await send(pdu)
                } catch {
                    if let request { await take(.requestSendFailed(request, error)) }
                }
            case let .startTimer(id, deadline):
                let clock = self.clock
                timers[id] = Task { [weak self] in
                    do { try await clock.sleep(until: deadline) } catch { return }
                    await self?.timerFired(id)
                }
            case let .cancelTimer(id):
                timers.removeValue(forKey: id)?.cancel()
            case let .completeRequest(id, result):
                responses.removeValue(forKey: id)?.send(result)
            case let .completeValueWait(id, result):
                values.removeValue(forKey: id)?.send(result)
            case .closeBearer:
                await bearer.close()
            }
        }
    }

    private func timerFired(_ id: UInt64) async {
        guard timers.removeValue(forKey: id) != nil else { return }
        await take(.timerFired(id))
    }

    private func startReadingIfNeeded() {
        guard reader == nil, machine.endedWith == nil else { return }
        let bearer = self.bearer
        reader = Task { [weak self] in
            while true {
                let pdu: [UInt8]
                do throws(GATTError) {
                    pdu = try await bearer.receive()
                } catch {
                    await self?.take(.bearerEnded(error))
                    return
                }
                guard let self else { return }
                await self.take(.pduReceived(pdu))
            }
        }
    }

    private func makeIdentifier() -> UInt64 {
        nextIdentifier += 1
        return nextIdentifier
    }

    private func send(_ pdu: [UInt8]) async throws(GATTError) {
        do {
            try await bearer.send(pdu)
        } catch {
            throw error.address == nil ? GATTError(error.kind, address: address, detail: error.detail) : error
        }
    }

    private func checkValueFits(_ value: [UInt8], what: String) throws(GATTError) {
        guard value.count <= mtu - 3 else {
            throw GATTError(.unsupported, address: address,
                            detail: "a \(what) value of \(value.count) bytes is longer than ATT_MTU - 3 = \(mtu - 3); "
                                    + "long writes are not supported, write at most \(mtu - 3) bytes at a time")
        }
    }
}
