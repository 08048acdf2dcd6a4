import DFUGATT

/// A `GATTLink` that passes everything to the one it wraps and reports, as `TraceEvent`s, each
/// ATT value written and notified with its exact bytes, then each message those values make
/// (reassembled by the characteristic's framing) read by the profile.
final class TracingLink: LinkWrapper {
    private let inner: any GATTLink
    private var messages: LinkMessageReader
    private let sink: (TraceEvent) -> Void
    private var closed = false
    /// The transport's clock minus the link's: events are told on the transport's clock, as
    /// the ones the transport reports (a link may keep its own clock: hci: one per connection).
    private let clockOffset: Duration

    init(_ inner: any GATTLink, catalog: MessageCatalog, clockOffset: Duration = .zero,
         sink: @escaping (TraceEvent) -> Void) {
        self.inner = inner
        self.messages = LinkMessageReader(catalog: catalog)
        self.clockOffset = clockOffset
        self.sink = sink
    }

    /// Now, on the transport's clock.
    private var time: Duration { inner.now + clockOffset }

    var wrapped: any GATTLink { inner }

    func discoverServices() async throws(GATTError) -> [GATTService] {
        let services = try await traced { () async throws(GATTError) in try await inner.discoverServices() }
        messages.learn(services)
        return services
    }

    func read(_ characteristic: GATTCharacteristic) async throws(GATTError) -> [UInt8] {
        try await traced { () async throws(GATTError) in try await inner.read(characteristic) }
    }

    func write(_ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType) async throws(GATTError) {
        let role = messages.role(characteristic.valueHandle)
        sink(TraceEvent(time: time, kind: .value(.init(direction: .written, characteristic: role, writeType: type,
                                                             bytes: value))))
        try await traced { () async throws(GATTError) in try await inner.write(value, to: characteristic, type: type) }
        let time = self.time
        for kind in messages.written(value, to: role) { sink(TraceEvent(time: time, kind: kind)) }
    }

    func setNotifications(enabled: Bool, for characteristic: GATTCharacteristic,
                          preferring kind: GATTValueUpdates) async throws(GATTError) {
        try await traced { () async throws(GATTError) in
            try await inner.setNotifications(enabled: enabled, for: characteristic, preferring: kind)
        }
        if enabled, let configuration = kind.configuration(for: characteristic.properties) {
            sink(TraceEvent(time: time, kind: .subscribed(characteristic: messages.role(characteristic.valueHandle),
                                                               indications: configuration == 0x0002)))
        }
    }

    func nextNotification(until deadline: Duration) async throws(GATTError) -> GATTNotification? {
        let notification = try await traced { () async throws(GATTError) in
            try await inner.nextNotification(until: deadline)
        }
        guard let notification else { return nil }
        let role = messages.role(notification.valueHandle)
        sink(TraceEvent(time: notification.receivedAt + clockOffset, kind: .value(.init(
            direction: .notified, characteristic: role, writeType: nil, bytes: notification.value))))
        for kind in messages.notified(notification.value, from: role) {
            sink(TraceEvent(time: notification.receivedAt + clockOffset, kind: kind))
        }
        return notification
    }

    func sleep(until deadline: Duration) async throws(GATTError) {
        try await traced { () async throws(GATTError) in try await inner.sleep(until: deadline) }
    }

    func disconnect() async {
        if !closed {
            closed = true
            sink(TraceEvent(time: time, kind: .disconnected(byDevice: false, reason: "DFUKit disconnected")))
        }
        await inner.disconnect()
    }

    /// Runs a call of the wrapped link; a lost link is reported once.
    private func traced<T>(_ call: () async throws(GATTError) -> T) async throws(GATTError) -> T {
        do {
            return try await call()
        } catch {
            if error.kind == .disconnected, !closed {
                closed = true
                sink(TraceEvent(time: time, kind: .disconnected(byDevice: true, reason: error.detail)))
            }
            throw error
        }
    }
}
