import DFUGATT

/// A GATT link over a wire: the engine writes the profile's characteristics and waits for their
/// notifications; this link frames each write as one message on the wire (`WireBinding`) and
/// hands each message the device sends back as a notification.
///
/// Text between messages (a console that also prints logs) and frames that do not decode are
/// not messages: they are kept in `noise` for traces, never handed to the engine.
public final class WireGATTLink: GATTLink {
    /// The device's stand-in address (a wire has none of its own).
    public let address: DeviceAddress
    private let wire: any ByteWire
    private let binding: WireBinding
    private var framing: any MessageFraming
    private var pending: [GATTNotification] = []
    private var closed = false
    /// Set when the wire failed: every later call throws it.
    private var failure: GATTError?
    /// What arrived that was not a message, oldest first (the latest 64).
    public private(set) var noise: [FramingOutput] = []
    /// Bytes sent and received on the wire, framing included.
    public private(set) var bytesSent = 0, bytesReceived = 0
    /// Told of every chunk of bytes sent or received, framing included (for traces).
    public var onTraffic: ((WireTraffic) -> Void)?

    /// A link to the device at the other end of `wire`, known as `address`.
    public init(wire: any ByteWire, binding: WireBinding, address: DeviceAddress) {
        self.wire = wire
        self.binding = binding
        self.framing = binding.framing
        self.address = address
    }

    /// The binding's largest value plus 3 (a profile's `link.mtu - 3` is how much one write
    /// carries, as over BLE).
    public var mtu: Int { binding.largestValue + 3 }
    /// The device's receive buffer, when the binding knows it.
    public var deviceBuffer: Int? { binding.deviceBuffer }
    /// The wire's clock.
    public var now: Duration { wire.now }
    /// `.serial` or `.udp`.
    public var medium: LinkMedium { binding.medium }

    /// The profile's characteristics: a wire has no GATT database to discover.
    public func discoverServices() async throws(GATTError) -> [GATTService] {
        try checkOpen()
        return binding.services
    }

    /// Refused: a wire carries messages, not attribute reads.
    public func read(_ characteristic: GATTCharacteristic) async throws(GATTError) -> [UInt8] {
        throw GATTError(.unsupported, address: address.description,
                        detail: "\(wire.description) carries no characteristic reads (\(characteristic.uuid)); "
                            + "the profile reads it only over Bluetooth")
    }

    /// Frames the write as one message on the wire. With or without response alike: a wire has
    /// no write response; the device's answer, if any, is a message.
    public func write(_ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType) async throws(GATTError) {
        try checkOpen()
        guard let carried = binding.writes[characteristic.valueHandle] else {
            throw GATTError(.unsupported, address: address.description,
                            detail: "the profile's \(binding.medium.rawValue) link carries no writes to \(characteristic.uuid)")
        }
        let message = carried.prefix + value
        guard message.count <= binding.largestMessage else {
            let limit = binding.deviceBuffer.map { "the device's \($0)-byte buffer (buffer=)" }
                ?? "the \(binding.maxMessage) bytes \(wire.description) carries in one message"
            throw GATTError(.unsupported, address: address.description,
                            detail: "a \(message.count)-byte message is longer than \(limit)")
        }
        let bytes: [UInt8]
        do {
            bytes = try framing.encode(message)
        } catch {
            throw GATTError(.unsupported, address: address.description, detail: "\(framing.name): \(error)")
        }
        do { try await wire.send(bytes) } catch { throw lost(error) }
        bytesSent += bytes.count
        onTraffic?(WireTraffic(sent: true, bytes: bytes, at: wire.now))
    }

    /// Accepted: every message the device sends is a notification of the response characteristic.
    public func setNotifications(enabled: Bool, for characteristic: GATTCharacteristic,
                                 preferring kind: GATTValueUpdates) async throws(GATTError) {
        try checkOpen()
    }

    /// The next message the device sent, as a notification of the response characteristic; nil
    /// once `deadline` passed.
    public func nextNotification(until deadline: Duration) async throws(GATTError) -> GATTNotification? {
        while pending.isEmpty {
            try checkOpen()
            let idle = binding.idleTimeout
            let step = idle.map { min(deadline, wire.now + $0) } ?? deadline
            let bytes: [UInt8]?
            do { bytes = try await wire.receive(until: step) } catch { throw lost(error) }
            guard let bytes else {
                if wire.now >= deadline { return nil }
                take(framing.lineWentIdle())
                continue
            }
            bytesReceived += bytes.count
            onTraffic?(WireTraffic(sent: false, bytes: bytes, at: wire.now))
            take(framing.decode(bytes))
        }
        return pending.removeFirst()
    }

    /// Lets time pass on the wire clock.
    public func sleep(until deadline: Duration) async throws(GATTError) {
        try checkOpen()
        await wire.sleep(until: deadline)
    }

    /// Closes the wire.
    public func disconnect() async {
        guard !closed else { return }
        closed = true
        await wire.close()
    }

    private func take(_ outputs: [FramingOutput]) {
        for output in outputs {
            if case let .message(message) = output {
                pending.append(GATTNotification(valueHandle: binding.responseHandle, value: message, receivedAt: wire.now))
            } else {
                noise.append(output)
                if noise.count > 64 { noise.removeFirst(noise.count - 64) }
            }
        }
    }

    private func checkOpen() throws(GATTError) {
        if let failure { throw failure }
        if closed {
            throw GATTError(.disconnected, address: address.description, detail: "\(wire.description) is closed")
        }
    }

    private func lost(_ error: WireError) -> GATTError {
        let failure = GATTError(.disconnected, address: address.description, detail: error.description)
        self.failure = failure
        return failure
    }
}

/// One chunk of bytes on a wire, framing included.
public struct WireTraffic: Sendable, Equatable {
    /// Sent to the device (else received from it).
    public var sent: Bool
    /// The exact bytes.
    public var bytes: [UInt8]
    /// On the wire's clock.
    public var at: Duration

    /// A chunk sent (or received) at `at`.
    public init(sent: Bool, bytes: [UInt8], at: Duration) {
        self.sent = sent
        self.bytes = bytes
        self.at = at
    }
}
