import DFUBytes
import DFUGATT

extension RecordingEvent {
    /// The event as its line's JSON text: `t`, `event`, then the event's keys. Values go through
    /// `blobs`, so a slice of a stored image is written as a reference to it.
    func json(_ blobs: inout BlobIndex) -> String {
        var line = JSONLine()
        line.raw("t", JSONLine.seconds(time))
        switch kind {
        case let .connecting(address):
            line.string("event", "connecting")
            line.string("address", address.description)
        case let .connected(address, mtu, medium, buffer):
            line.string("event", "connected")
            line.string("address", address.description)
            line.int("mtu", mtu)
            line.string("medium", medium.rawValue)
            if let buffer { line.int("buffer", buffer) }
        case let .link(grant):
            line.string("event", "link")
            Self.add(grant, to: &line)
        case let .services(services, names):
            line.string("event", "services")
            line.raw("services", JSONLine.array(services.map { Self.json($0, names: names) }))
        case let .advertisement(advertisement):
            line.string("event", "advertisement")
            line.string("address", advertisement.address.description)
            line.string("name", advertisement.name)
            line.raw("services", JSONLine.array(advertisement.serviceUUIDs.map { JSONLine.quoted($0.description) }))
            line.int("rssi", advertisement.rssi)
        case let .write(handle, characteristic, withResponse, value):
            line.string("event", "write")
            line.int("handle", Int(handle))
            line.string("characteristic", characteristic)
            line.bool("response", withResponse)
            line.raw("value", blobs.json(value))
        case let .writeAcknowledged(handle):
            line.string("event", "write-acknowledged")
            line.int("handle", Int(handle))
        case let .writeFailed(handle, attError, error):
            line.string("event", "write-failed")
            line.int("handle", Int(handle))
            line.int("att_error", attError.map(Int.init))
            line.string("error", error)
        case let .read(handle, characteristic):
            line.string("event", "read")
            line.int("handle", Int(handle))
            line.string("characteristic", characteristic)
        case let .readValue(handle, value):
            line.string("event", "read-value")
            line.int("handle", Int(handle))
            line.raw("value", blobs.json(value))
        case let .readFailed(handle, attError, error):
            line.string("event", "read-failed")
            line.int("handle", Int(handle))
            line.int("att_error", attError.map(Int.init))
            line.string("error", error)
        case let .subscribe(handle, characteristic, updates):
            line.string("event", "subscribe")
            line.int("handle", Int(handle))
            line.string("characteristic", characteristic)
            line.string("updates", updates.rawValue)
        case let .notification(handle, characteristic, indication, value):
            line.string("event", "notification")
            line.int("handle", Int(handle))
            line.string("characteristic", characteristic)
            line.bool("indication", indication)
            line.raw("value", blobs.json(value))
        case let .message(message):
            line.string("event", "message")
            line.string("direction", message.direction.rawValue)
            line.string("characteristic", message.characteristic)
            if let garbled = message.garbled {
                line.string("garbled", garbled)
                break
            }
            line.raw("bytes", blobs.json(message.bytes))
            line.int("values", message.values)
            line.string("name", message.name)
            line.string("kind", message.role)
            if !message.fields.isEmpty {
                var fields = JSONLine()
                for field in message.fields { fields.string(field.name, field.value) }
                line.raw("fields", fields.json)
            }
            line.string("status", message.status)
            line.string("unknown", message.unknown)
        case let .wire(direction, bytes):
            line.string("event", "wire")
            line.string("direction", direction.rawValue)
            line.raw("bytes", blobs.json(bytes))
        case let .note(text):
            line.string("event", "note")
            line.string("text", text)
        case let .disconnected(byDevice, reason):
            line.string("event", "disconnected")
            line.string("by", byDevice ? "device" : "dfukit")
            line.string("reason", reason)
        }
        return line.json
    }

    private static func json(_ service: GATTService, names: [UInt16: String]) -> String {
        var line = JSONLine()
        line.string("uuid", service.uuid.description)
        line.raw("characteristics", JSONLine.array(service.characteristics.map { characteristic in
            var item = JSONLine()
            item.string("uuid", characteristic.uuid.description)
            item.int("handle", Int(characteristic.valueHandle))
            item.raw("properties", JSONLine.array(characteristic.properties.names.map(JSONLine.quoted)))
            item.string("name", names[characteristic.valueHandle])
            return item.json
        }))
        return line.json
    }

    private static func add(_ grant: LinkGrant, to line: inout JSONLine) {
        line.string("source", grant.source.rawValue)
        line.string("tx_phy", grant.txPHY?.rawValue)
        line.string("rx_phy", grant.rxPHY?.rawValue)
        line.int("tx_octets", grant.txOctets)
        line.int("rx_octets", grant.rxOctets)
        line.int("tx_time_us", grant.txTime)
        line.int("rx_time_us", grant.rxTime)
        line.int("mtu", grant.mtu)
        line.int("interval_us", grant.interval)
        line.int("latency", grant.latency)
        line.int("supervision_timeout_ms", grant.supervisionTimeout)
        if !grant.requested.isEmpty {
            let asked = grant.requested
            var request = JSONLine()
            request.string("phy", asked.phy?.rawValue)
            request.int("data_length", asked.dataLength)
            request.int("mtu", asked.mtu)
            request.int("interval_min_us", asked.intervalMin)
            request.int("interval_max_us", asked.intervalMax)
            request.int("latency", asked.latency)
            request.int("supervision_timeout_ms", asked.supervisionTimeout)
            line.raw("requested", request.json)
        }
        if !grant.notes.isEmpty { line.raw("notes", JSONLine.array(grant.notes.map(JSONLine.quoted))) }
        line.string("summary", grant.summary)
    }
}
