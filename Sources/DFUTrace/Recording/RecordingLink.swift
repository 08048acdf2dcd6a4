import DFUCapture
import DFUGATT

/// A `GATTLink` that passes everything to the one it wraps and records what goes over it: each
/// ATT operation with its exact bytes and outcome, the services found, the link's grant, the
/// profile's messages those values make, and how the link ended.
final class RecordingLink: LinkWrapper {
    private let inner: any GATTLink
    private let recorder: SessionRecorder
    private var messages: LinkMessageReader
    /// Value handles subscribed to with indications: their updates are indications.
    private var indicated: Set<UInt16> = []
    private var closed = false
    /// The transport's clock minus the link's: a link may keep its own clock (hci: one per
    /// connection), and a recording is on one clock, the transport's.
    private let clockOffset: Duration

    init(_ inner: any GATTLink, catalog: MessageCatalog, recorder: SessionRecorder, clockOffset: Duration) {
        self.inner = inner
        self.recorder = recorder
        self.clockOffset = clockOffset
        self.messages = LinkMessageReader(catalog: catalog)
    }

    var wrapped: any GATTLink { inner }

    func discoverServices() async throws(GATTError) -> [GATTService] {
        let services = try await recorded { () async throws(GATTError) in try await inner.discoverServices() }
        messages.learn(services)
        record(.services(services, names: messages.names))
        // What the stack granted is known once discovery is done.
        if let grant = await inner.linkGrant { record(.link(grant)) }
        return services
    }

    func read(_ characteristic: GATTCharacteristic) async throws(GATTError) -> [UInt8] {
        let handle = characteristic.valueHandle
        record(.read(handle: handle, characteristic: messages.names[handle]))
        do {
            let value = try await recorded { () async throws(GATTError) in try await inner.read(characteristic) }
            record(.readValue(handle: handle, value: value))
            return value
        } catch {
            record(.readFailed(handle: handle, attError: Self.attCode(error), error: error.description))
            throw error
        }
    }

    func write(_ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType) async throws(GATTError) {
        let handle = characteristic.valueHandle
        record(.write(handle: handle, characteristic: messages.names[handle], withResponse: type == .withResponse, value: value))
        do {
            try await recorded { () async throws(GATTError) in try await inner.write(value, to: characteristic, type: type) }
        } catch {
            record(.writeFailed(handle: handle, attError: Self.attCode(error), error: error.description))
            throw error
        }
        if type == .withResponse { record(.writeAcknowledged(handle: handle)) }
        for kind in messages.written(value, to: messages.role(handle)) { record(message(kind, .write)) }
    }

    func setNotifications(enabled: Bool, for characteristic: GATTCharacteristic,
                          preferring kind: GATTValueUpdates) async throws(GATTError) {
        try await recorded { () async throws(GATTError) in
            try await inner.setNotifications(enabled: enabled, for: characteristic, preferring: kind)
        }
        let handle = characteristic.valueHandle
        let configuration = enabled ? kind.configuration(for: characteristic.properties) : 0
        let updates: RecordingEvent.Updates = configuration == 2 ? .indications : configuration == 1 ? .notifications : .off
        if updates == .indications { indicated.insert(handle) } else { indicated.remove(handle) }
        record(.subscribe(handle: handle, characteristic: messages.names[handle], updates: updates))
    }

    func nextNotification(until deadline: Duration) async throws(GATTError) -> GATTNotification? {
        let notification = try await recorded { () async throws(GATTError) in try await inner.nextNotification(until: deadline) }
        guard let notification else { return nil }
        let handle = notification.valueHandle
        recorder.record(.notification(handle: handle, characteristic: messages.names[handle],
                                      indication: indicated.contains(handle), value: notification.value),
                        at: notification.receivedAt + clockOffset)
        for kind in messages.notified(notification.value, from: messages.role(handle)) {
            recorder.record(message(kind, .notify), at: notification.receivedAt + clockOffset)
        }
        return notification
    }

    func sleep(until deadline: Duration) async throws(GATTError) {
        try await recorded { () async throws(GATTError) in try await inner.sleep(until: deadline) }
    }

    func disconnect() async {
        if !closed {
            closed = true
            record(.disconnected(byDevice: false, reason: "DFUKit disconnected"))
        }
        await inner.disconnect()
    }

    private func record(_ kind: RecordingEvent.Kind) {
        recorder.record(kind, at: inner.now + clockOffset)
    }

    private func message(_ kind: TraceEvent.Kind, _ direction: RecordingEvent.Direction) -> RecordingEvent.Kind {
        switch kind {
        case let .message(message): return .message(RecordedMessage(message))
        case let .garbled(characteristic, reason):
            return .message(RecordedMessage(garbled: reason, characteristic: characteristic, direction: direction))
        default: return .note("\(kind)")
        }
    }

    private static func attCode(_ error: GATTError) -> UInt8? {
        if case let .attError(code, _) = error.kind { return code }
        return nil
    }

    /// Runs a call of the wrapped link; a lost link is recorded once.
    private func recorded<T>(_ call: () async throws(GATTError) -> T) async throws(GATTError) -> T {
        do {
            return try await call()
        } catch {
            if error.kind == .disconnected, !closed {
                closed = true
                record(.disconnected(byDevice: true, reason: error.detail))
            }
            throw error
        }
    }
}
