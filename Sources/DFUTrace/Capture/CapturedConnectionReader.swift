import DFUBytes
import DFUCapture
import DFUEngine
import DFUGATT
import DFUProfile

/// Reads one captured connection into trace events: values as they went, then the messages
/// they make by the profile (as `TracingLink` does on a live link).
struct CapturedConnectionReader {
    private let connection: CapturedConnection
    private let number: Int
    private let catalog: MessageCatalog?
    private(set) var names: [UInt16: String] = [:]
    private(set) var naming: CaptureInspection.NamingSource = .none
    private(set) var messages = 0, decoded = 0
    private(set) var firstUnexplained: (time: Duration, reason: String)?
    private var streams: [String: MessageStream] = [:]
    private var events: [TraceEvent] = []
    private var lastRead: UInt16?

    init(_ connection: CapturedConnection, number: Int, profile: Profile?) {
        self.connection = connection
        self.number = number
        catalog = profile.map(MessageCatalog.init)
        if let profile, let services = connection.services {
            for characteristic in services.flatMap(\.characteristics) {
                if let spec = profile.characteristics.first(where: {
                    $0.uuid == characteristic.uuid && $0.service == characteristic.service
                }) {
                    names[characteristic.valueHandle] = spec.name
                }
            }
            naming = names.isEmpty ? .none : .discovery
        } else if let profile {
            names = HandleNaming.byContent(connection, profile: profile)
            naming = names.isEmpty ? .none : .content
        }
        if naming == .none, let services = connection.services {
            for characteristic in services.flatMap(\.characteristics) {
                names[characteristic.valueHandle] = characteristic.uuid.description
            }
        }
    }

    mutating func read() -> [TraceEvent] {
        catalog?.reset()
        let address = connection.peer ?? DeviceAddress(value: 0)
        let start = connection.operations.first?.time ?? .zero
        events.append(TraceEvent(time: start, kind: .connected(address, mtu: connection.mtu ?? 23)))
        for operation in connection.operations {
            let time = operation.time
            switch operation.kind {
            case let .write(handle, value, withResponse):
                let role = name(handle)
                events.append(TraceEvent(time: time, kind: .value(.init(direction: .written, characteristic: role,
                                                                         writeType: withResponse ? .withResponse : .withoutResponse,
                                                                         bytes: value))))
                readMessages(value, role: role, direction: .written, time: time)
            case let .notification(handle, value, indication):
                let role = name(handle)
                events.append(TraceEvent(time: time, kind: .value(.init(direction: .notified, characteristic: role,
                                                                         writeType: nil, bytes: value))))
                if indication { events.append(TraceEvent(time: time, kind: .note("(an indication)"))) }
                readMessages(value, role: role, direction: .notified, time: time)
            case let .subscribe(_, valueHandle, configuration):
                let role = valueHandle.map(name) ?? "a descriptor"
                if configuration == 0 {
                    events.append(TraceEvent(time: time, kind: .note("updates of \(role) switched off")))
                } else {
                    events.append(TraceEvent(time: time, kind: .subscribed(characteristic: role,
                                                                           indications: configuration & 2 != 0)))
                }
            case let .read(handle):
                lastRead = handle
                events.append(TraceEvent(time: time, kind: .note("read \(name(handle))")))
            case let .readValue(value):
                events.append(TraceEvent(time: time, kind: .note("read \(lastRead.map(name) ?? "value"): "
                                                                 + value.hexString)))
            case let .attError(request, handle, code):
                events.append(TraceEvent(time: time, kind: .note(String(
                    format: "the device refused request 0x%02x on %@: ATT error 0x%02x", request, name(handle), code))))
            case let .mtuExchange(client, server):
                let text = client.map { "the client asks for ATT_MTU \($0)" } ?? server.map { "the device answers ATT_MTU \($0)" }
                events.append(TraceEvent(time: time, kind: .note(text ?? "MTU exchange")))
            case .writeAcknowledged:
                continue
            }
        }
        if let ending = connection.ending {
            let reason = ending.reason.map { String(format: "reason 0x%02x", $0) } ?? "no reason in the capture"
            events.append(TraceEvent(time: ending.time, kind: .disconnected(byDevice: ending.byDevice, reason: reason)))
        }
        return events
    }

    private func name(_ handle: UInt16) -> String {
        names[handle] ?? "handle 0x" + String(format: "%04x", handle)
    }

    private mutating func readMessages(_ value: [UInt8], role: String, direction: TraceEvent.Direction, time: Duration) {
        guard let catalog, catalog.profile.characteristic(named: role) != nil else { return }
        let key = direction.rawValue + " " + role
        var stream = streams[key] ?? MessageStream(framing: catalog.framing(of: role))
        let result = stream.append(value)
        streams[key] = stream
        switch result {
        case let .success(found):
            for (bytes, values) in found {
                var reading = direction == .written ? catalog.readWritten(bytes, to: role) : catalog.readNotified(bytes, from: role)
                messages += 1
                switch reading {
                case var .decoded(message):
                    decoded += 1
                    if direction == .written, let failure = ChecksumCheck.failure(of: message.name, bytes, catalog.profile) {
                        message.problems.append(failure)
                        reading = .decoded(message)
                        unexplained(time, "message '\(message.name)' on \(role): \(failure)")
                    }
                case let .unknown(reason):
                    unexplained(time, "\(direction == .written ? "written to" : "notified by") \(role): "
                                + "\(bytes.prefix(8).hexString): \(reason)")
                case .raw:
                    decoded += 1
                }
                events.append(TraceEvent(time: time, kind: .message(.init(direction: direction, characteristic: role,
                                                                           bytes: bytes, values: values, reading: reading))))
            }
        case let .failure(error):
            events.append(TraceEvent(time: time, kind: .garbled(characteristic: role, reason: "\(error)")))
            unexplained(time, "values on \(role) break its framing: \(error)")
        }
    }

    private mutating func unexplained(_ time: Duration, _ reason: String) {
        if firstUnexplained == nil { firstUnexplained = (time, reason) }
    }
}
