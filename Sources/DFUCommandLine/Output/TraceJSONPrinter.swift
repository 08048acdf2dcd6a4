import DFUKit
import DFUTrace
import Foundation

/// A trace for programs: JSON Lines, one object per event, `{"event": "trace", ...}` first and
/// `{"event": "end", ...}` last; bytes as lowercase hex, times in seconds on the link clock.
final class TraceJSONPrinter: TracePrinter {
    private let console: any Console

    init(console: any Console) {
        self.console = console
    }

    func begin(_ header: TraceHeader) {
        emit(["event": "trace", "profile": header.profile, "profile_path": header.profilePath, "device": header.device,
              "clock": header.clock, "images": header.images.map { ["name": $0.name, "size": $0.size] }])
    }

    func print(_ event: TraceEvent) {
        var object: [String: Any] = ["time": TraceOutcome.seconds(event.time)]
        switch event.kind {
        case let .connecting(address):
            object["event"] = "connecting"
            object["address"] = address.description
        case let .connected(address, mtu):
            object["event"] = "connected"
            object["address"] = address.description
            object["mtu"] = mtu
        case let .subscribed(characteristic, indications):
            object["event"] = "subscribed"
            object["characteristic"] = characteristic
            object["updates"] = indications ? "indications" : "notifications"
        case let .value(value):
            object["event"] = "value"
            object["direction"] = value.direction.rawValue
            object["characteristic"] = value.characteristic
            object["hex"] = value.bytes.hexString
            if let type = value.writeType { object["write"] = type.rawValue }
        case let .message(message):
            object.merge(Self.message(message)) { $1 }
        case let .garbled(characteristic, reason):
            object["event"] = "garbled"
            object["characteristic"] = characteristic
            object["reason"] = reason
        case let .disconnected(byDevice, reason):
            object["event"] = "disconnected"
            object["by"] = byDevice ? "device" : "dfukit"
            object["reason"] = reason
        case let .note(text):
            object["event"] = "note"
            object["text"] = text
        case let .wire(direction, bytes):
            object["event"] = "wire"
            object["direction"] = direction.rawValue
            object["hex"] = bytes.hexString
        }
        emit(object)
    }

    private static func message(_ message: TraceEvent.Message) -> [String: Any] {
        var object: [String: Any] = ["event": "message", "direction": message.direction.rawValue,
                                     "characteristic": message.characteristic, "hex": message.bytes.hexString,
                                     "values": message.values]
        switch message.reading {
        case .raw:
            object["raw"] = true
        case let .unknown(reason):
            object["unknown"] = reason
        case let .decoded(decoded):
            object["name"] = decoded.name
            object["kind"] = decoded.kind.rawValue
            object["fields"] = Dictionary(decoded.fields.map { ($0.name, $0.value.jsonObject) }) { first, _ in first }
            if let status = decoded.status { object["status"] = status }
            if !decoded.alternatives.isEmpty { object["alternatives"] = decoded.alternatives }
            if decoded.unsolicited { object["unsolicited"] = true }
            if !decoded.problems.isEmpty { object["problems"] = decoded.problems }
        }
        return object
    }

    func end(_ report: FlashReport, generic: Bool) {
        var object: [String: Any] = ["event": "end", "status": report.error == nil ? report.status.rawValue : "stopped",
                                     "seconds": report.seconds]
        if let error = report.error {
            var detail: [String: Any] = ["kind": error.kind.rawValue, "message": error.message]
            if let location = error.location { detail["location"] = location.description }
            object["error"] = detail
            if generic, let hint = TraceOutcome.genericHint(error) { object["note"] = hint }
        }
        emit(object)
    }

    /// One more object on its own line (a command's own header or summary around the events).
    func emit(_ object: [String: Any]) {
        console.out(JSONOutput.line(object))
    }
}
