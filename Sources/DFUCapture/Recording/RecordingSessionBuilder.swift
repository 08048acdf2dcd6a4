import DFUGATT

/// Folds a recording's events into connections and ATT operations (`CapturedSession`'s terms):
/// a connection opens at `connected` and ends at `disconnected`; writes, reads, subscriptions and
/// notifications become operations; messages, wire bytes and notes stay events.
struct RecordingSessionBuilder {
    private(set) var connections: [CapturedConnection] = []
    private(set) var notes: [String] = []
    private var open: Int?
    private var advertisements: [DeviceAddress: Advertisement] = [:]

    mutating func add(_ event: RecordingEvent, line: Int) {
        let time = event.time
        switch event.kind {
        case .connecting, .message, .wire, .note:
            return
        case let .advertisement(advertisement):
            advertisements[advertisement.address] = advertisement
            if let open, connections[open].peer == advertisement.address, connections[open].advertisement == nil {
                connections[open].advertisement = advertisement
            }
        case let .connected(address, mtu, medium, buffer):
            var connection = CapturedConnection(peer: address, medium: medium, mtu: mtu, advertisement: advertisements[address])
            connection.deviceBuffer = buffer
            connections.append(connection)
            open = connections.count - 1
        case let .link(grant):
            if let mtu = grant.mtu { update(line) { $0.mtu = mtu } }
        case let .services(services, _):
            update(line) { $0.services = services }
        case let .disconnected(byDevice, _):
            update(line) { $0.ending = CapturedEnding(time: time, byDevice: byDevice) }
            open = nil
        case let .write(handle, _, withResponse, value):
            operation(.write(handle: handle, value: value, withResponse: withResponse), time, line)
        case .writeAcknowledged:
            operation(.writeAcknowledged, time, line)
        case let .writeFailed(handle, attError, _):
            if let attError { operation(.attError(request: 0x12, handle: handle, code: attError), time, line) }
        case let .read(handle, _):
            operation(.read(handle: handle), time, line)
        case let .readValue(_, value):
            operation(.readValue(value), time, line)
        case let .readFailed(handle, attError, _):
            if let attError { operation(.attError(request: 0x0A, handle: handle, code: attError), time, line) }
        case let .subscribe(handle, _, updates):
            operation(.subscribe(descriptorHandle: handle &+ 1, valueHandle: handle, configuration: updates.configuration),
                      time, line)
        case let .notification(handle, _, indication, value):
            operation(.notification(handle: handle, value: value, indication: indication), time, line)
        }
    }

    private mutating func operation(_ kind: CapturedOperation.Kind, _ time: Duration, _ line: Int) {
        update(line) { $0.operations.append(CapturedOperation(time: time, kind: kind)) }
    }

    private mutating func update(_ line: Int, _ change: (inout CapturedConnection) -> Void) {
        guard let open else {
            notes.append("line \(line): an operation outside any connection (no 'connected' before it); left out")
            return
        }
        change(&connections[open])
    }
}
