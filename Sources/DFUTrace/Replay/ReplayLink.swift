import DFUCapture
import DFUGATT

/// One replayed connection: the captured GATT database and MTU, the device's captured answers
/// queued on the replay's clock.
final class ReplayLink: GATTLink {
    private unowned let transport: ReplayTransport
    private let connection: CapturedConnection
    private let clock: ReplayTransport.Clock
    /// Notifications due, in time order.
    private var queue: [(due: Duration, value: GATTNotification)] = []
    /// When the device drops the link, as it did in the capture.
    private var disconnectDue: Duration?
    private var closed: String?

    init(transport: ReplayTransport, connection: CapturedConnection, clock: ReplayTransport.Clock) {
        self.transport = transport
        self.connection = connection
        self.clock = clock
    }

    var address: DeviceAddress { ReplayTransport.address(of: connection) }
    var mtu: Int { connection.mtu ?? 23 }
    var now: Duration { clock.now }
    var medium: LinkMedium { connection.medium }
    var deviceBuffer: Int? { connection.deviceBuffer }

    func discoverServices() async throws(GATTError) -> [GATTService] {
        try checkOpen()
        return connection.services ?? []
    }

    func read(_ characteristic: GATTCharacteristic) async throws(GATTError) -> [UInt8] {
        try checkOpen()
        let answer = try settle(transport.read(characteristic.valueHandle))
        try refuse(answer)
        return answer.readValue ?? []
    }

    func write(_ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType) async throws(GATTError) {
        try checkOpen()
        let answer = try settle(transport.write(value, to: characteristic.valueHandle, withResponse: type == .withResponse))
        if type == .withResponse { try refuse(answer) }
    }

    func setNotifications(enabled: Bool, for characteristic: GATTCharacteristic,
                          preferring kind: GATTValueUpdates) async throws(GATTError) {
        try checkOpen()
        if case let .failure(divergence) = transport.subscribe(characteristic.valueHandle, enabled: enabled) {
            throw diverged(divergence)
        }
    }

    func nextNotification(until deadline: Duration) async throws(GATTError) -> GATTNotification? {
        try checkOpen()
        if let first = queue.first, first.due <= deadline, first.due <= disconnectDue ?? first.due {
            queue.removeFirst()
            clock.advance(to: first.due)
            var notification = first.value
            notification.receivedAt = clock.now
            return notification
        }
        if let due = disconnectDue, due <= deadline {
            clock.advance(to: due)
            try checkOpen()
        }
        clock.advance(to: deadline)
        return nil
    }

    func sleep(until deadline: Duration) async throws(GATTError) {
        if let due = disconnectDue, due <= deadline { clock.advance(to: due) }
        clock.advance(to: deadline)
        try checkOpen()
    }

    func disconnect() async {
        guard closed == nil else { return }
        closed = "DFUKit disconnected"
        transport.closed(byDevice: false, connection: connection)
    }

    /// Queues the device's answers to the operation just made.
    func deliver(_ answer: ReplayScript.Answer) {
        for (after, notification) in answer.notifications {
            queue.append((clock.now + after, notification))
        }
        queue.sort { $0.due < $1.due }
        if let after = answer.disconnectAfter { disconnectDue = clock.now + after }
    }

    private func settle(_ result: Result<ReplayScript.Answer, ReplayDivergence>) throws(GATTError) -> ReplayScript.Answer {
        switch result {
        case let .success(answer):
            deliver(answer)
            return answer
        case let .failure(divergence):
            throw diverged(divergence)
        }
    }

    private func refuse(_ answer: ReplayScript.Answer) throws(GATTError) {
        guard let refusal = answer.refusal else { return }
        throw GATTError(.attError(code: refusal.code, handle: refusal.handle), address: address.description,
                        detail: "the captured device refused it")
    }

    private func diverged(_ divergence: ReplayDivergence) -> GATTError {
        closed = closed ?? divergence.description
        return GATTError(.unsupported, address: address.description,
                         detail: "the captured device never saw this request: \(divergence)")
    }

    /// A link the device dropped (when its time came) or DFUKit closed fails every call.
    private func checkOpen() throws(GATTError) {
        if closed == nil, let due = disconnectDue, clock.now >= due {
            let reason = connection.ending?.reason.map { String(format: " (reason 0x%02x)", $0) } ?? ""
            closed = "the device ended the connection, as it did in the capture\(reason)"
            transport.closed(byDevice: true, connection: connection)
            throw GATTError(.disconnected, address: address.description, detail: closed!)
        }
        if let closed { throw GATTError(.disconnected, address: address.description, detail: closed) }
    }
}
