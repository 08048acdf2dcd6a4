import DFUGATT

/// The rules of the Attribute Protocol's client side (Core spec Vol 3, Part F) as a pure state
/// machine: events in (a request issued, a PDU received, a timer fired, the bearer gone),
/// actions out (send a PDU, complete a request, start or cancel a timer, close the bearer).
/// No clock, no tasks: the caller passes the time with each event and runs the actions in
/// order. `ATTClient` is the thin actor that does so over a real bearer.
///
/// - One outstanding request (3.3.2, "sequential protocol"): a request issued while another
///   is outstanding is queued and sent once that one got its response, its Error Response, or
///   failed. Commands (Write Command) and confirmations are not transactions and never queue.
/// - A response is matched to the outstanding request by opcode, an Error Response by its
///   Request Opcode In Error (its Attribute Handle In Error is reported, not matched: servers
///   name the handle that failed, which for discovery is inside the requested range). A
///   response that matches nothing, or a malformed one, ends the bearer: the transaction's
///   state is unknown afterwards.
/// - Transaction timeout (3.3.3): a request unanswered `transactionTimeout` after it was sent
///   fails with `.timeout` and the bearer ends, since "no more ATT PDUs shall be sent" on it.
///   A request whose caller gave up (cancelled) while outstanding ends the bearer the same
///   way: its answer may still come, and no other request may go out before it.
/// - Indications are confirmed as they arrive; notifications and indications wait in arrival
///   order for `valueWaitStarted`. The peer's Exchange MTU Request is answered; other requests
///   from the peer get "Request Not Supported" (this client has no server).
package struct ATTClientMachine: Sendable {
    /// Names one request or one wait for a value; chosen by the driver, unique per client.
    package typealias ID = UInt64

    /// The ATT_MTU before any exchange on an LE bearer (Vol 3, Part F, 3.2.8).
    package static let defaultLEMTU = 23

    /// The ATT_MTU the bearer can carry: what this client proposes and answers with.
    package let bearerMTU: Int
    package let transactionTimeout: Duration
    /// Put on every error this machine makes ("C0:11:22:33:44:55").
    package let address: String?

    /// The current ATT_MTU: 23 until an MTU exchange, then min(client Rx MTU, server Rx MTU).
    package internal(set) var mtu = ATTClientMachine.defaultLEMTU
    /// Why the bearer ended, once it has: every later request and wait fails with it.
    package internal(set) var endedWith: GATTError?
    /// PDUs from the peer that were malformed or unexpected and were dropped.
    package internal(set) var droppedPDUCount = 0

    var outstanding: OutstandingRequest?
    var queue: [QueuedRequest] = []
    /// Notifications and indications received and not yet taken, oldest first.
    var values = FIFOQueue<ATTReceivedValue>()
    /// Callers waiting for a value, oldest first (their deadlines are timers).
    var valueWaits: [ID] = []

    struct QueuedRequest: Sendable {
        var id: ID
        var opcode: ATTOpcode
        var pdu: [UInt8]
    }

    struct OutstandingRequest: Sendable {
        var id: ID
        var opcode: ATTOpcode
        var pdu: [UInt8]
    }

    package init(bearerMTU: Int, transactionTimeout: Duration = .seconds(30), address: String? = nil) {
        self.bearerMTU = bearerMTU
        self.transactionTimeout = transactionTimeout
        self.address = address
    }

    /// Whether a request has been sent and not answered yet.
    package var hasOutstandingRequest: Bool { outstanding != nil }
    /// Requests waiting for their turn behind the outstanding one.
    package var queuedRequestCount: Int { queue.count }
    /// Values received and not yet handed to a wait.
    package var bufferedValueCount: Int { values.count }

    /// Takes one event at time `now` (on the driver's clock) and returns what to do, in order.
    package mutating func handle(_ event: ATTClientEvent, at now: Duration) -> [ATTClientAction] {
        switch event {
        case let .requestIssued(id, opcode, pdu):
            return issue(QueuedRequest(id: id, opcode: opcode, pdu: pdu), at: now)
        case let .requestSendFailed(id, error):
            return sendFailed(id, error: error, at: now)
        case let .valueWaitStarted(id, deadline):
            return startValueWait(id, until: deadline, at: now)
        case let .cancelled(id):
            return cancel(id, at: now)
        case let .timerFired(id):
            return timerFired(id)
        case let .pduReceived(pdu):
            return receive(pdu, at: now)
        case let .bearerEnded(error):
            return end(with: error)
        case .closed:
            return end(with: failure(.disconnected, "the ATT bearer was closed by this side"))
        }
    }

    func failure(_ kind: GATTError.Kind, _ detail: String) -> GATTError {
        GATTError(kind, address: address, detail: detail)
    }

    /// `error` with this client's address when it names none.
    func stamped(_ error: GATTError) -> GATTError {
        error.address == nil ? GATTError(error.kind, address: address, detail: error.detail) : error
    }
}
