import DFUBytes
import DFUGATT

/// A `GATTLink` that passes everything to the one it wraps and reports, as `TraceEvent`s, each
/// ATT value written and notified with its exact bytes, then each message those values make
/// (reassembled by the characteristic's framing) read by the profile.
final class TracingLink: GATTLink {
    private let inner: any GATTLink
    private let catalog: MessageCatalog
    private let sink: (TraceEvent) -> Void
    /// The profile's name of each characteristic found, by value handle.
    private var roles: [UInt16: String] = [:]
    private var writes: [String: MessageStream] = [:]
    private var notifications: [String: MessageStream] = [:]
    private var closed = false

    init(_ inner: any GATTLink, catalog: MessageCatalog, sink: @escaping (TraceEvent) -> Void) {
        self.inner = inner
        self.catalog = catalog
        self.sink = sink
    }

    var address: DeviceAddress { inner.address }
    var mtu: Int { inner.mtu }
    var now: Duration { inner.now }
    var linkGrant: LinkGrant? { get async { await inner.linkGrant } }
    func writesCarried() async throws(GATTError) { try await inner.writesCarried() }
    var writesInFlight: Int? { get async { await inner.writesInFlight } }
    var medium: LinkMedium { inner.medium }
    var deviceBuffer: Int? { inner.deviceBuffer }

    func discoverServices() async throws(GATTError) -> [GATTService] {
        let services = try await traced { () async throws(GATTError) in try await inner.discoverServices() }
        for spec in catalog.profile.characteristics {
            let found = services.first { $0.uuid == spec.service }?.characteristics.first { $0.uuid == spec.uuid }
            if let found { roles[found.valueHandle] = spec.name }
        }
        return services
    }

    func read(_ characteristic: GATTCharacteristic) async throws(GATTError) -> [UInt8] {
        try await traced { () async throws(GATTError) in try await inner.read(characteristic) }
    }

    func write(_ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType) async throws(GATTError) {
        let role = self.role(characteristic.valueHandle)
        sink(TraceEvent(time: inner.now, kind: .value(.init(direction: .written, characteristic: role, writeType: type,
                                                             bytes: value))))
        try await traced { () async throws(GATTError) in try await inner.write(value, to: characteristic, type: type) }
        var stream = writes[role] ?? MessageStream(framing: catalog.framing(of: role))
        let result = stream.append(value)
        writes[role] = stream
        report(result, .written, role) { catalog.readWritten($0, to: role) }
    }

    func setNotifications(enabled: Bool, for characteristic: GATTCharacteristic,
                          preferring kind: GATTValueUpdates) async throws(GATTError) {
        try await traced { () async throws(GATTError) in
            try await inner.setNotifications(enabled: enabled, for: characteristic, preferring: kind)
        }
        if enabled, let configuration = kind.configuration(for: characteristic.properties) {
            sink(TraceEvent(time: inner.now, kind: .subscribed(characteristic: role(characteristic.valueHandle),
                                                               indications: configuration == 0x0002)))
        }
    }

    func nextNotification(until deadline: Duration) async throws(GATTError) -> GATTNotification? {
        let notification = try await traced { () async throws(GATTError) in
            try await inner.nextNotification(until: deadline)
        }
        guard let notification else { return nil }
        let role = self.role(notification.valueHandle)
        sink(TraceEvent(time: notification.receivedAt, kind: .value(.init(
            direction: .notified, characteristic: role, writeType: nil, bytes: notification.value))))
        var stream = notifications[role] ?? MessageStream(framing: catalog.framing(of: role))
        let result = stream.append(notification.value)
        notifications[role] = stream
        report(result, .notified, role, at: notification.receivedAt) { catalog.readNotified($0, from: role) }
        return notification
    }

    func sleep(until deadline: Duration) async throws(GATTError) {
        try await traced { () async throws(GATTError) in try await inner.sleep(until: deadline) }
    }

    func disconnect() async {
        if !closed {
            closed = true
            sink(TraceEvent(time: inner.now, kind: .disconnected(byDevice: false, reason: "DFUKit disconnected")))
        }
        await inner.disconnect()
    }

    private func role(_ handle: UInt16) -> String {
        roles[handle] ?? "handle " + StatusReading.hex(UInt64(handle))
    }

    private func report(_ result: Result<[(message: [UInt8], values: Int)], FramingError>, _ direction: TraceEvent.Direction,
                        _ role: String, at time: Duration? = nil, read: ([UInt8]) -> MessageReading) {
        let time = time ?? inner.now
        switch result {
        case let .success(messages):
            for (bytes, values) in messages {
                sink(TraceEvent(time: time, kind: .message(.init(direction: direction, characteristic: role, bytes: bytes,
                                                                 values: values, reading: read(bytes)))))
            }
        case let .failure(error):
            sink(TraceEvent(time: time, kind: .garbled(characteristic: role, reason: "\(error)")))
        }
    }

    /// Runs a call of the wrapped link; a lost link is reported once.
    private func traced<T>(_ call: () async throws(GATTError) -> T) async throws(GATTError) -> T {
        do {
            return try await call()
        } catch {
            if error.kind == .disconnected, !closed {
                closed = true
                sink(TraceEvent(time: inner.now, kind: .disconnected(byDevice: true, reason: error.detail)))
            }
            throw error
        }
    }
}
