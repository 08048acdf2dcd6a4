import DFUBytes
import DFUGATT
import Foundation

/// Reads one line of a recording's JSON object back into what the writer wrote: the header,
/// a blob, or an event. A key that is missing or of the wrong type is an error at the key's
/// column; keys it does not know are ignored (a later writer of the same version may add some).
struct RecordingLineDecoder {
    let source: String
    let number: Int
    let text: String
    let object: [String: Any]

    /// The line's object, or an error at column 1 when it is not a JSON object.
    init(source: String, number: Int, text: String) throws(RecordingError) {
        self.source = source
        self.number = number
        self.text = text
        guard let parsed = try? JSONSerialization.jsonObject(with: Data(text.utf8)), let object = parsed as? [String: Any] else {
            throw RecordingError(path: source, line: number, column: 1, message: "this line is not a JSON object",
                                 remedy: "every line of a recording is one JSON object; the file may be damaged, or not a recording")
        }
        self.object = object
    }

    // MARK: The header

    func header() throws(RecordingError) -> RecordingHeader {
        guard let format = object["format"] as? String else {
            throw error("the first line names no format: this is not a DFUKit recording", key: nil,
                        remedy: "give a file written by --record (its first line starts {\"format\":\"dfukit-recording\"")
        }
        guard format == RecordingHeader.formatName else {
            throw error("format '\(format)' is not '\(RecordingHeader.formatName)'", key: "format",
                        remedy: "give a file written by --record; read btsnoop and pcap files as captures")
        }
        let version = try int("version")
        guard version >= 1 else {
            throw error("version \(version) is not a recording version (they start at 1)", key: "version",
                        remedy: "the file is damaged; record the session again")
        }
        guard version <= RecordingHeader.currentVersion else {
            throw error("this recording is format version \(version); this DFUKit reads versions up to "
                        + "\(RecordingHeader.currentVersion)", key: "version",
                        remedy: "read it with the DFUKit that wrote it or a newer one (update DFUKit)")
        }
        let files = object["images"] as? [[String: Any]] ?? []
        return RecordingHeader(version: version, dfukitVersion: object["dfukit"] as? String,
                               startedAt: object["started_at"] as? String ?? "", profile: object["profile"] as? String,
                               device: object["device"] as? String, transport: object["transport"] as? String,
                               medium: (object["medium"] as? String).flatMap(LinkMedium.init(rawValue:)),
                               package: (object["package"] as? [String: Any]).flatMap(Self.file),
                               images: files.compactMap(Self.file))
    }

    private static func file(_ object: [String: Any]) -> RecordingHeader.File? {
        guard let name = object["name"] as? String, let sha = object["sha256"] as? String else { return nil }
        return RecordingHeader.File(name: name, size: object["size"] as? Int, sha256: sha)
    }

    // MARK: Blobs

    /// A blob line's SHA-256 and bytes, checked against its size and hash; nil for another line.
    func blob() throws(RecordingError) -> (sha256: String, bytes: [UInt8])? {
        guard let sha = object["blob"] as? String else { return nil }
        let size = try int("size")
        guard let text = object["base64"] as? String, let data = Data(base64Encoded: text) else {
            throw error("the blob's base64 text is missing or is not base64", key: "base64",
                        remedy: "the file is damaged; record the session again")
        }
        let bytes = [UInt8](data)
        guard bytes.count == size, SHA256.digest(bytes).hexString == sha else {
            throw error("the blob's \(bytes.count) bytes do not match its size \(size) and SHA-256", key: "base64",
                        remedy: "the file is damaged; record the session again")
        }
        return (sha, bytes)
    }

    // MARK: Events

    /// The event, or nil for an event type this reader does not know.
    func event(blobs: [String: [UInt8]]) throws(RecordingError) -> RecordingEvent? {
        guard let seconds = object["t"] as? Double else {
            throw error("the event has no time 't' (seconds)", key: "t", remedy: "the file is damaged; record the session again")
        }
        let time = Duration.microseconds(Int64((seconds * 1_000_000).rounded()))
        guard let name = object["event"] as? String else {
            throw error("the line is neither the header, a blob nor an event ('event' is missing)", key: nil,
                        remedy: "the file is damaged; record the session again")
        }
        let kind: RecordingEvent.Kind
        switch name {
        case "connecting": kind = .connecting(try address("address"))
        case "connected":
            kind = .connected(try address("address"), mtu: try int("mtu"),
                              medium: (object["medium"] as? String).flatMap(LinkMedium.init(rawValue:)) ?? .ble,
                              buffer: object["buffer"] as? Int)
        case "link": kind = .link(linkGrant())
        case "services": kind = try services()
        case "advertisement":
            kind = .advertisement(Advertisement(address: try address("address"), name: object["name"] as? String,
                                                serviceUUIDs: (object["services"] as? [String] ?? []).compactMap(BluetoothUUID.init(string:)),
                                                rssi: object["rssi"] as? Int ?? 0))
        case "write":
            kind = .write(handle: try handle(), characteristic: object["characteristic"] as? String,
                          withResponse: object["response"] as? Bool ?? false, value: try bytes("value", blobs))
        case "write-acknowledged": kind = .writeAcknowledged(handle: try handle())
        case "write-failed":
            kind = .writeFailed(handle: try handle(), attError: (object["att_error"] as? Int).map(UInt8.init(truncatingIfNeeded:)),
                                error: object["error"] as? String ?? "")
        case "read": kind = .read(handle: try handle(), characteristic: object["characteristic"] as? String)
        case "read-value": kind = .readValue(handle: try handle(), value: try bytes("value", blobs))
        case "read-failed":
            kind = .readFailed(handle: try handle(), attError: (object["att_error"] as? Int).map(UInt8.init(truncatingIfNeeded:)),
                               error: object["error"] as? String ?? "")
        case "subscribe":
            guard let updates = (object["updates"] as? String).flatMap(RecordingEvent.Updates.init(rawValue:)) else {
                throw error("'updates' is not notifications, indications or off", key: "updates",
                            remedy: "the file is damaged; record the session again")
            }
            kind = .subscribe(handle: try handle(), characteristic: object["characteristic"] as? String, updates: updates)
        case "notification":
            kind = .notification(handle: try handle(), characteristic: object["characteristic"] as? String,
                                 indication: object["indication"] as? Bool ?? false, value: try bytes("value", blobs))
        case "message": kind = .message(try message(blobs))
        case "wire": kind = .wire(direction: try direction(), bytes: try bytes("bytes", blobs))
        case "note": kind = .note(object["text"] as? String ?? "")
        case "disconnected":
            kind = .disconnected(byDevice: (object["by"] as? String) == "device", reason: object["reason"] as? String ?? "")
        default: return nil
        }
        return RecordingEvent(time: time, kind: kind)
    }

    private func services() throws(RecordingError) -> RecordingEvent.Kind {
        var names: [UInt16: String] = [:]
        var services: [GATTService] = []
        for item in object["services"] as? [[String: Any]] ?? [] {
            guard let uuid = (item["uuid"] as? String).flatMap(BluetoothUUID.init(string:)) else {
                throw error("a service's uuid is missing or is not a UUID", key: "services",
                            remedy: "the file is damaged; record the session again")
            }
            var characteristics: [GATTCharacteristic] = []
            for entry in item["characteristics"] as? [[String: Any]] ?? [] {
                guard let characteristicUUID = (entry["uuid"] as? String).flatMap(BluetoothUUID.init(string:)),
                      let handle = entry["handle"] as? Int, let valueHandle = UInt16(exactly: handle) else {
                    throw error("a characteristic's uuid or handle is missing or wrong", key: "characteristics",
                                remedy: "the file is damaged; record the session again")
                }
                let properties = Self.properties(entry["properties"] as? [String] ?? [])
                characteristics.append(GATTCharacteristic(service: uuid, uuid: characteristicUUID, valueHandle: valueHandle,
                                                          properties: properties))
                if let name = entry["name"] as? String { names[valueHandle] = name }
            }
            services.append(GATTService(uuid: uuid, characteristics: characteristics))
        }
        return .services(services, names: names)
    }

    private static func properties(_ names: [String]) -> GATTProperties {
        let all: [GATTProperties] = [.broadcast, .read, .writeWithoutResponse, .write, .notify, .indicate]
        return all.reduce(into: GATTProperties()) { result, property in
            if let name = property.names.first, names.contains(name) { result.insert(property) }
        }
    }

    private func linkGrant() -> LinkGrant {
        func phy(_ key: String, in object: [String: Any]) -> LinkGrant.PHY? {
            (object[key] as? String).flatMap(LinkGrant.PHY.init(rawValue:))
        }
        let asked = object["requested"] as? [String: Any] ?? [:]
        let request = LinkGrant.Request(phy: phy("phy", in: asked), dataLength: asked["data_length"] as? Int,
                                        mtu: asked["mtu"] as? Int, intervalMin: asked["interval_min_us"] as? Int,
                                        intervalMax: asked["interval_max_us"] as? Int, latency: asked["latency"] as? Int,
                                        supervisionTimeout: asked["supervision_timeout_ms"] as? Int)
        return LinkGrant(source: (object["source"] as? String).flatMap(LinkGrant.Source.init(rawValue:)) ?? .controller,
                         txPHY: phy("tx_phy", in: object), rxPHY: phy("rx_phy", in: object),
                         txOctets: object["tx_octets"] as? Int, rxOctets: object["rx_octets"] as? Int,
                         txTime: object["tx_time_us"] as? Int, rxTime: object["rx_time_us"] as? Int,
                         mtu: object["mtu"] as? Int, interval: object["interval_us"] as? Int,
                         latency: object["latency"] as? Int, supervisionTimeout: object["supervision_timeout_ms"] as? Int,
                         requested: request, notes: object["notes"] as? [String] ?? [])
    }

    private func message(_ blobs: [String: [UInt8]]) throws(RecordingError) -> RecordedMessage {
        var message = RecordedMessage(direction: try direction(), characteristic: object["characteristic"] as? String ?? "",
                                      bytes: [], values: object["values"] as? Int ?? 0)
        if let garbled = object["garbled"] as? String {
            message.garbled = garbled
            return message
        }
        message.bytes = try bytes("bytes", blobs)
        message.name = object["name"] as? String
        message.role = object["kind"] as? String
        let fields = object["fields"] as? [String: Any] ?? [:]
        message.fields = fields.keys.sorted().map { RecordedMessage.Field(name: $0, value: fields[$0].map { "\($0)" } ?? "") }
        message.status = object["status"] as? String
        message.unknown = object["unknown"] as? String
        return message
    }

    // MARK: Typed keys

    private func direction() throws(RecordingError) -> RecordingEvent.Direction {
        guard let direction = (object["direction"] as? String).flatMap(RecordingEvent.Direction.init(rawValue:)) else {
            throw error("'direction' is not write or notify", key: "direction", remedy: "the file is damaged; record the session again")
        }
        return direction
    }

    private func handle() throws(RecordingError) -> UInt16 {
        let value = try int("handle")
        guard let handle = UInt16(exactly: value) else {
            throw error("handle \(value) is not an ATT handle (0...65535)", key: "handle",
                        remedy: "the file is damaged; record the session again")
        }
        return handle
    }

    private func int(_ key: String) throws(RecordingError) -> Int {
        guard let value = object[key] as? Int else {
            throw error("'\(key)' is missing or is not a whole number", key: object[key] == nil ? nil : key,
                        remedy: "the file is damaged; record the session again")
        }
        return value
    }

    private func address(_ key: String) throws(RecordingError) -> DeviceAddress {
        guard let address = (object[key] as? String).flatMap(DeviceAddress.init(string:)) else {
            throw error("'\(key)' is missing or is not a device address (C0:FF:EE:00:00:01)", key: object[key] == nil ? nil : key,
                        remedy: "the file is damaged; record the session again")
        }
        return address
    }

    /// Hex text, or an array of hex strings and blob slices, as exact bytes.
    private func bytes(_ key: String, _ blobs: [String: [UInt8]]) throws(RecordingError) -> [UInt8] {
        if let hex = object[key] as? String, let bytes = [UInt8](hex: hex) { return bytes }
        guard let parts = object[key] as? [Any] else {
            throw error("'\(key)' is missing, or is neither hex text nor a list of parts", key: object[key] == nil ? nil : key,
                        remedy: "the file is damaged; record the session again")
        }
        var bytes: [UInt8] = []
        for part in parts {
            if let hex = part as? String, let piece = [UInt8](hex: hex) {
                bytes += piece
            } else if let slice = part as? [String: Any], let sha = slice["blob"] as? String, let offset = slice["offset"] as? Int,
                      let length = slice["length"] as? Int {
                guard let blob = blobs[sha] else {
                    throw error("'\(key)' refers to blob \(sha), which no line before it holds", key: key,
                                remedy: "the blob lines follow the header; the file is damaged or was edited")
                }
                guard offset >= 0, length >= 0, offset + length <= blob.count else {
                    throw error("'\(key)' takes \(length) bytes at offset \(offset) of a \(blob.count)-byte blob", key: key,
                                remedy: "the file is damaged; record the session again")
                }
                bytes += blob[offset..<offset + length]
            } else {
                throw error("a part of '\(key)' is neither hex text nor a blob slice", key: key,
                            remedy: "the file is damaged; record the session again")
            }
        }
        return bytes
    }

    /// An error at `key`'s column in this line (column 1 without a key).
    func error(_ message: String, key: String?, remedy: String) -> RecordingError {
        var column = 1
        if let key, let range = text.range(of: "\"\(key)\"") {
            column = text.distance(from: text.startIndex, to: range.lowerBound) + 1
        }
        return RecordingError(path: source, line: number, column: column, message: message, remedy: remedy)
    }
}
