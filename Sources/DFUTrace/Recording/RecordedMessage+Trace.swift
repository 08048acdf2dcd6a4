import DFUBytes
import DFUCapture
import DFUEngine
import Foundation

extension RecordedMessage {
    /// A traced message as a recording keeps it: its fields as text.
    init(_ message: TraceEvent.Message) {
        self.init(direction: message.direction == .written ? .write : .notify, characteristic: message.characteristic,
                  bytes: message.bytes, values: message.values)
        switch message.reading {
        case let .decoded(decoded):
            name = decoded.name
            role = decoded.kind.rawValue
            fields = decoded.fields.map { Field(name: $0.name, value: Self.text($0.value)) }
            status = decoded.status
        case let .unknown(reason):
            unknown = reason
        case .raw:
            break
        }
    }

    /// A run of values that broke the characteristic's framing.
    init(garbled reason: String, characteristic: String, direction: RecordingEvent.Direction) {
        self.init(direction: direction, characteristic: characteristic, bytes: [], values: 0, garbled: reason)
    }

    /// Bytes fields longer than this are told by their length: the message's bytes hold them
    /// (as slices of the image, where they are).
    static let longestBytesField = 64

    /// Integers in decimal, bytes in hex (longer than `longestBytesField`: "4096 bytes"), text
    /// as is, records and lists as JSON.
    static func text(_ value: Value) -> String {
        switch value {
        case let .integer(number): return String(number)
        case let .boolean(flag): return String(flag)
        case let .bytes(bytes) where bytes.count > longestBytesField: return "\(bytes.count) bytes"
        case let .bytes(bytes): return bytes.hexString
        case let .string(text): return text
        case .record, .list:
            let data = try? JSONSerialization.data(withJSONObject: value.jsonObject, options: [.sortedKeys, .fragmentsAllowed])
            return data.map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
        }
    }
}
