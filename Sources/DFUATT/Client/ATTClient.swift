import DFUGATT
import Synchronization

/// The client side of the Attribute Protocol over one bearer (Core spec Vol 3, Part F).
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
public actor ATTClient {
    /// The ATT_MTU before any exchange on an LE bearer (Vol 3, Part F, 3.2.8).
    public static let defaultLEMTU = 23

    public nonisolated let bearer: any ATTBearer
    public nonisolated let clock: any ATTClock
    public nonisolated let transactionTimeout: Duration
    /// Put in front of every error ("C0:11:22:33:44:55").
    public nonisolated let address: String?

    private let negotiatedMTU = Mutex(ATTClient.defaultLEMTU)
    private var mtuExchanged = false

    private var requestInProgress = false
    private var waitingForTurn: [CheckedContinuation<Void, Never>] = []
    private var pending: PendingRequest?
    private var nextIdentifier: UInt64 = 0
    private var endedWith: GATTError?
    private var reader: Task<Void, Never>?

    private var received: [ATTReceivedValue] = []
    private var receivedHead = 0
    private var valueWaiters: [UInt64: CheckedContinuation<Result<ATTReceivedValue?, GATTError>, Never>] = [:]
    private var expiredValueWaits: Set<UInt64> = []

    /// PDUs from the peer that were malformed or unexpected and were dropped.
    public private(set) var droppedPDUCount = 0

    private struct PendingRequest {
        var identifier: UInt64
        var opcode: ATTOpcode
        var continuation: CheckedContinuation<Result<[UInt8], GATTError>, Never>?
        var result: Result<[UInt8], GATTError>?
        var timer: Task<Void, Never>?
    }

    public init(bearer: any ATTBearer, address: String? = nil, transactionTimeout: Duration = .seconds(30),
                clock: any ATTClock = ContinuousATTClock()) {
        self.bearer = bearer
        self.address = address
        self.transactionTimeout = transactionTimeout
        self.clock = clock
    }

    /// The current ATT_MTU: 23 until an MTU exchange, then min(client Rx MTU, server Rx MTU).
    public nonisolated var mtu: Int { negotiatedMTU.withLock { $0 } }

    /// Requests waiting for their turn behind the outstanding one.
    public var queuedRequestCount: Int { waitingForTurn.count }

    /// Whether a request has been sent and not answered yet.
    public var hasOutstandingRequest: Bool { pending != nil }

    /// Starts reading PDUs from the bearer (every other method does this too), so that
    /// indications are confirmed before the first request.
    public func start() { startReadingIfNeeded() }

    // MARK: - Requests

    /// Sends `request` once no other request is outstanding and returns the server's response.
    /// An Error Response throws `.attError` with its code and handle.
    public func request<Request: ATTRequestPDU>(_ request: Request) async throws(GATTError) -> Request.Response {
        let bytes = try await transact(request.bytes, opcode: Request.opcode)
        do {
            return try Request.Response(decoding: bytes)
        } catch {
            throw failure(.disconnected, "\(Request.Response.opcode) is malformed: \(error)")
        }
    }

    /// Exchange MTU (Vol 3, Part G, 4.3.1): proposes the bearer's MTU once per connection and
    /// returns the ATT_MTU now in force. A server that does not support it leaves 23.
    @discardableResult
    public func exchangeMTU() async throws(GATTError) -> Int {
        guard !mtuExchanged else { return mtu }
        mtuExchanged = true
        let proposed = UInt16(clamping: max(Self.defaultLEMTU, bearer.mtu))
        do {
            let response = try await request(ATTExchangeMTURequest(clientRxMTU: proposed))
            let agreed = max(Self.defaultLEMTU, min(Int(proposed), Int(response.serverRxMTU)))
            negotiatedMTU.withLock { $0 = agreed }
        } catch {
            guard case let .attError(code, _) = error.kind, code == ATTErrorCode.requestNotSupported.rawValue else {
                throw error
            }
            // The server keeps the default ATT_MTU.
        }
        return mtu
    }

    /// Read Request: the value's first ATT_MTU - 1 bytes.
    public func read(handle: UInt16) async throws(GATTError) -> [UInt8] {
        try await request(ATTReadRequest(attributeHandle: handle)).attributeValue
    }

    /// Read Blob Request: up to ATT_MTU - 1 bytes from `offset`.
    public func readBlob(handle: UInt16, offset: UInt16) async throws(GATTError) -> [UInt8] {
        try await request(ATTReadBlobRequest(attributeHandle: handle, valueOffset: offset)).partAttributeValue
    }

    /// Write Request: returns once the server sent its Write Response.
    public func write(handle: UInt16, value: [UInt8]) async throws(GATTError) {
        try checkValueFits(value, what: "Write Request")
        _ = try await request(ATTWriteRequest(attributeHandle: handle, attributeValue: value))
    }

    /// Write Command: returns once the bearer accepted it. It does not wait for an
    /// outstanding request (commands are not transactions).
    public func writeCommand(handle: UInt16, value: [UInt8]) async throws(GATTError) {
        startReadingIfNeeded()
        if let endedWith { throw endedWith }
        try checkValueFits(value, what: "Write Command")
        try await send(ATTWriteCommand(attributeHandle: handle, attributeValue: value).bytes)
    }

    // MARK: - Notifications and indications

    /// The oldest notification or indication not yet returned, waiting for one until
    /// `deadline` on `clock`; nil once the deadline passed. Values that arrived before the
    /// bearer closed are returned before the closing error.
    public func nextValue(until deadline: Duration) async throws(GATTError) -> ATTReceivedValue? {
        startReadingIfNeeded()
        if let value = popReceived() { return value }
        if let endedWith { throw endedWith }
        guard clock.now < deadline else { return nil }
        nextIdentifier += 1
        let identifier = nextIdentifier
        let clock = self.clock
        let timer = Task { [weak self] in
            do { try await clock.sleep(until: deadline) } catch { return }
            await self?.expireValueWait(identifier)
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<ATTReceivedValue?, GATTError>, Never>) in
                if expiredValueWaits.remove(identifier) != nil {
                    continuation.resume(returning: .success(nil))
                } else {
                    valueWaiters[identifier] = continuation
                }
            }
        } onCancel: {
            Task { await self.expireValueWait(identifier) }
        }
        timer.cancel()
        return try result.get()
    }

    /// Values received and not yet returned by `nextValue(until:)`.
    public var bufferedValueCount: Int { received.count - receivedHead }

    /// Closes the bearer; outstanding and later requests fail with `.disconnected`.
    public func close() async {
        await end(with: failure(.disconnected, "the ATT bearer was closed by this side"))
    }

    // MARK: - Transactions

    private func transact(_ pdu: [UInt8], opcode: ATTOpcode) async throws(GATTError) -> [UInt8] {
        startReadingIfNeeded()
        await waitForTurn()
        defer { passTurn() }
        if let endedWith { throw endedWith }
        guard pdu.count <= mtu else {
            throw failure(.unsupported, "\(opcode) of \(pdu.count) bytes exceeds ATT_MTU \(mtu)")
        }
        nextIdentifier += 1
        let identifier = nextIdentifier
        let clock = self.clock
        let deadline = clock.now + transactionTimeout
        // Registered before sending: the response may arrive while `send` is suspended.
        pending = PendingRequest(identifier: identifier, opcode: opcode)
        pending?.timer = Task { [weak self] in
            do { try await clock.sleep(until: deadline) } catch { return }
            await self?.transactionTimedOut(identifier)
        }
        do {
            try await send(pdu)
        } catch {
            complete(identifier, with: .failure(error))
        }
        let result: Result<[UInt8], GATTError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if let result = pending?.result, pending?.identifier == identifier {
                    continuation.resume(returning: result)
                } else {
                    pending?.continuation = continuation
                    if Task.isCancelled { Task { await self.transactionCancelled(identifier) } }
                }
            }
        } onCancel: {
            Task { await self.transactionCancelled(identifier) }
        }
        if pending?.identifier == identifier {
            pending?.timer?.cancel()
            pending = nil
        }
        return try result.get()
    }

    private func waitForTurn() async {
        guard requestInProgress else {
            requestInProgress = true
            return
        }
        await withCheckedContinuation { continuation in waitingForTurn.append(continuation) }
    }

    /// Hands the turn to the next waiting request, if any.
    private func passTurn() {
        if waitingForTurn.isEmpty {
            requestInProgress = false
        } else {
            waitingForTurn.removeFirst().resume()
        }
    }

    /// Finishes the outstanding request `identifier` (if it still is).
    private func complete(_ identifier: UInt64, with result: Result<[UInt8], GATTError>) {
        guard var request = pending, request.identifier == identifier, request.result == nil else { return }
        request.timer?.cancel()
        request.result = result
        if let continuation = request.continuation {
            request.continuation = nil
            continuation.resume(returning: result)
        }
        pending = request
    }

    /// The caller stopped waiting (its task was cancelled: Ctrl-C). The answer may still come,
    /// and no other request may go out before it (Core Vol 3, Part F, 3.3.2): the bearer is
    /// closed, as after a timeout.
    private func transactionCancelled(_ identifier: UInt64) async {
        guard let request = pending, request.identifier == identifier, request.result == nil else { return }
        complete(identifier, with: .failure(failure(.disconnected, "\(request.opcode) cancelled before its answer")))
        await end(with: failure(.disconnected, "the ATT bearer was closed after \(request.opcode) was cancelled"))
    }

    private func transactionTimedOut(_ identifier: UInt64) async {
        guard let request = pending, request.identifier == identifier, request.result == nil else { return }
        let error = failure(.timeout, "no answer to \(request.opcode) within \(transactionTimeout) "
                                      + "(ATT transaction timeout); the ATT bearer was closed, reconnect to go on")
        complete(identifier, with: .failure(error))
        await end(with: failure(.disconnected, "the ATT bearer was closed after \(request.opcode) timed out"))
    }

    // MARK: - Reading the bearer

    private func startReadingIfNeeded() {
        guard reader == nil, endedWith == nil else { return }
        let bearer = self.bearer
        reader = Task { [weak self] in
            while true {
                let pdu: [UInt8]
                do throws(GATTError) {
                    pdu = try await bearer.receive()
                } catch {
                    await self?.end(with: error)
                    return
                }
                guard let self else { return }
                await self.handle(pdu)
            }
        }
    }

    private func handle(_ pdu: [UInt8]) async {
        let decoded: ATTPDU
        do {
            decoded = try ATTPDU(decoding: pdu)
        } catch {
            await handleMalformed(pdu, error: error)
            return
        }
        let opcode = decoded.opcode
        switch decoded {
        case let .handleValueNotification(notification):
            deliver(ATTReceivedValue(kind: .notification, attributeHandle: notification.attributeHandle,
                                     attributeValue: notification.attributeValue, receivedAt: clock.now))
        case let .handleValueIndication(indication):
            deliver(ATTReceivedValue(kind: .indication, attributeHandle: indication.attributeHandle,
                                     attributeValue: indication.attributeValue, receivedAt: clock.now))
            try? await send(ATTHandleValueConfirmation().bytes)
        case let .exchangeMTURequest(request):
            let ours = max(Self.defaultLEMTU, bearer.mtu)
            let agreed = max(Self.defaultLEMTU, min(ours, Int(request.clientRxMTU)))
            negotiatedMTU.withLock { $0 = agreed }
            try? await send(ATTExchangeMTUResponse(serverRxMTU: UInt16(clamping: ours)).bytes)
        case let .errorResponse(response):
            guard let request = pending, request.result == nil else {
                await violation("\(opcode) for \(response.requestOpcodeInError) with no request outstanding")
                return
            }
            guard response.requestOpcodeInError == request.opcode else {
                await violation("\(opcode) names \(response.requestOpcodeInError) but \(request.opcode) is outstanding")
                return
            }
            let handleText = hexHandle(response.attributeHandleInError)
            complete(request.identifier, with: .failure(failure(
                .attError(code: response.errorCode.rawValue, handle: response.attributeHandleInError),
                "\(request.opcode) on handle \(handleText) failed: \(response.errorCode)")))
        default:
            if Self.isResponse(opcode) {
                guard let request = pending, request.result == nil else {
                    await violation("\(opcode) with no request outstanding")
                    return
                }
                guard request.opcode.responseOpcode == opcode else {
                    await violation("\(opcode) does not answer the outstanding \(request.opcode)")
                    return
                }
                complete(request.identifier, with: .success(pdu))
            } else if opcode.isRequest {
                let error = ATTErrorResponse(requestOpcodeInError: opcode, attributeHandleInError: 0,
                                             errorCode: .requestNotSupported)
                try? await send(error.bytes)
            } else {
                // A command or confirmation this client does not act on.
                droppedPDUCount += 1
            }
        }
    }

    private func handleMalformed(_ pdu: [UInt8], error: ATTDecodingError) async {
        guard let first = pdu.first else {
            droppedPDUCount += 1
            return
        }
        let opcode = ATTOpcode(first)
        if Self.isResponse(opcode), pending?.result == nil, pending != nil {
            await violation("the peer answered with a malformed PDU: \(error)")
        } else if opcode.isRequest {
            let response = ATTErrorResponse(requestOpcodeInError: opcode, attributeHandleInError: 0, errorCode: .invalidPDU)
            try? await send(response.bytes)
        } else {
            droppedPDUCount += 1
        }
    }

    /// The peer broke the protocol: the outstanding request fails and the bearer is closed.
    private func violation(_ detail: String) async {
        droppedPDUCount += 1
        let error = failure(.disconnected, "ATT protocol violation: \(detail); the ATT bearer was closed")
        if let request = pending { complete(request.identifier, with: .failure(error)) }
        await end(with: error)
    }

    private static func isResponse(_ opcode: ATTOpcode) -> Bool {
        opcode == .errorResponse || (opcode.rawValue > 0 && ATTOpcode(opcode.rawValue - 1).isRequest)
    }

    // MARK: - Values

    private func deliver(_ value: ATTReceivedValue) {
        if let first = valueWaiters.keys.min(), let waiter = valueWaiters.removeValue(forKey: first) {
            waiter.resume(returning: .success(value))
        } else {
            received.append(value)
        }
    }

    private func popReceived() -> ATTReceivedValue? {
        guard receivedHead < received.count else { return nil }
        let value = received[receivedHead]
        receivedHead += 1
        if receivedHead > 64, receivedHead * 2 > received.count {
            received.removeFirst(receivedHead)
            receivedHead = 0
        }
        return value
    }

    private func expireValueWait(_ identifier: UInt64) {
        if let waiter = valueWaiters.removeValue(forKey: identifier) {
            waiter.resume(returning: .success(nil))
        } else {
            expiredValueWaits.insert(identifier)
        }
    }

    // MARK: - Ending

    /// Marks the client ended, fails everything waiting and closes the bearer.
    private func end(with error: GATTError) async {
        guard markEnded(with: error) else { return }
        await bearer.close()
    }

    /// Marks the client ended and fails everything waiting, before any suspension, so that
    /// nothing more is sent; false if it had already ended.
    private func markEnded(with error: GATTError) -> Bool {
        guard endedWith == nil else { return false }
        let error = error.address == nil ? GATTError(error.kind, address: address, detail: error.detail) : error
        endedWith = error
        if let request = pending { complete(request.identifier, with: .failure(error)) }
        for waiter in valueWaiters.values { waiter.resume(returning: .failure(error)) }
        valueWaiters.removeAll()
        return true
    }

    // MARK: - Helpers

    private func send(_ pdu: [UInt8]) async throws(GATTError) {
        do {
            try await bearer.send(pdu)
        } catch {
            throw error.address == nil ? GATTError(error.kind, address: address, detail: error.detail) : error
        }
    }

    private func checkValueFits(_ value: [UInt8], what: String) throws(GATTError) {
        guard value.count <= mtu - 3 else {
            throw failure(.unsupported, "a \(what) value of \(value.count) bytes is longer than ATT_MTU - 3 = \(mtu - 3); "
                                        + "long writes are not supported, write at most \(mtu - 3) bytes at a time")
        }
    }

    private func failure(_ kind: GATTError.Kind, _ detail: String) -> GATTError {
        GATTError(kind, address: address, detail: detail)
    }
}
