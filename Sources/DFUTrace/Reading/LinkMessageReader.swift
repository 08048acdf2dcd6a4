import DFUBytes
import DFUGATT

/// What an observer of one link makes of its values: the profile's name of each characteristic
/// (bound at discovery), and the messages the values written and notified make, reassembled by
/// each characteristic's framing and read by the profile. Shared by the tracing and the
/// recording wrappers.
struct LinkMessageReader {
    let catalog: MessageCatalog
    /// The profile's name of each characteristic found, by value handle.
    private(set) var names: [UInt16: String] = [:]
    private var writes: [String: MessageStream] = [:]
    private var notifications: [String: MessageStream] = [:]

    init(catalog: MessageCatalog) {
        self.catalog = catalog
    }

    /// Binds the profile's characteristics to the handles discovery found.
    mutating func learn(_ services: [GATTService]) {
        for spec in catalog.profile.characteristics {
            let found = services.first { $0.uuid == spec.service }?.characteristics.first { $0.uuid == spec.uuid }
            if let found { names[found.valueHandle] = spec.name }
        }
    }

    /// The profile's name of the characteristic, or `handle 0x000C` for one it does not name.
    func role(_ handle: UInt16) -> String {
        names[handle] ?? "handle " + StatusReading.hex(UInt64(handle))
    }

    /// The messages (or the framing error) that `value`, written to `role`, completes.
    mutating func written(_ value: [UInt8], to role: String) -> [TraceEvent.Kind] {
        var stream = writes[role] ?? MessageStream(framing: catalog.framing(of: role))
        let result = stream.append(value)
        writes[role] = stream
        return Self.events(result, .written, role) { catalog.readWritten($0, to: role) }
    }

    /// The messages (or the framing error) that `value`, notified from `role`, completes.
    mutating func notified(_ value: [UInt8], from role: String) -> [TraceEvent.Kind] {
        var stream = notifications[role] ?? MessageStream(framing: catalog.framing(of: role))
        let result = stream.append(value)
        notifications[role] = stream
        return Self.events(result, .notified, role) { catalog.readNotified($0, from: role) }
    }

    private static func events(_ result: Result<[(message: [UInt8], values: Int)], FramingError>,
                               _ direction: TraceEvent.Direction, _ role: String,
                               read: ([UInt8]) -> MessageReading) -> [TraceEvent.Kind] {
        switch result {
        case let .success(messages):
            return messages.map { bytes, values in
                .message(.init(direction: direction, characteristic: role, bytes: bytes, values: values, reading: read(bytes)))
            }
        case let .failure(error):
            return [.garbled(characteristic: role, reason: "\(error)")]
        }
    }
}
