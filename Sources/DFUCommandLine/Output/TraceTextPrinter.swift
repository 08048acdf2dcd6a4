import DFUKit
import DFUTrace
import Foundation

/// A trace for people: one line per ATT value with its exact bytes, then a line per message
/// with what the profile reads in it.
///
///       0.0525 s  -> control  write with response  01 00 05
///                 => status request  05
///       0.0600 s  <- control  notification  2b 00 85 00 ...
///                 <= status response  85 00 ...  status: ok
///                    offset=0 crc32=0 sha256=0000...
final class TraceTextPrinter: TracePrinter {
    private let console: any Console
    private static let margin = String(repeating: " ", count: 16)

    init(console: any Console) {
        self.console = console
    }

    func begin(_ header: TraceHeader) {
        console.out("trace of profile '\(header.profile)' (\(header.profilePath))")
        console.out("device: \(header.device), \(header.clock) clock; "
                    + header.images.map { "image '\($0.name)' \($0.size) bytes" }.joined(separator: ", "))
    }

    func print(_ event: TraceEvent) {
        let time = String(format: "%10.4f s  ", TraceOutcome.seconds(event.time))
        switch event.kind {
        case let .connecting(address): console.out(time + "connecting to \(address)")
        case let .connected(address, mtu): console.out(time + "connected to \(address), ATT_MTU \(mtu)")
        case let .subscribed(characteristic, indications):
            console.out(time + "subscribed to \(characteristic)" + (indications ? " (indications)" : ""))
        case let .value(value):
            let arrow = value.direction == .written ? "->" : "<-"
            let how = value.writeType.map { "write " + ($0 == .withResponse ? "with" : "without") + " response" }
                ?? "notification"
            console.out(time + "\(arrow) \(value.characteristic)  \(how)  \(TraceValueText.spaced(value.bytes))")
        case let .message(message): printMessage(message)
        case let .garbled(characteristic, reason):
            console.out(time + "!! \(characteristic): notifications break the framing (\(reason)); reassembly starts over")
        case let .disconnected(byDevice, reason):
            console.out(time + (byDevice ? "the device dropped the link: " : "disconnected: ") + reason)
        case let .note(text): console.out(time + "-- " + text)
        case let .wire(direction, bytes):
            console.out(time + (direction == .written ? "~> " : "<~ ") + "wire  \(TraceValueText.spaced(bytes))")
        }
    }

    private func printMessage(_ message: TraceEvent.Message) {
        let arrow = message.direction == .written ? "=>" : "<="
        let spans = message.values > 1 ? " (\(message.values) values)" : ""
        let bytes = TraceValueText.spaced(message.bytes)
        switch message.reading {
        case .raw:
            // A stream's data: one value is one message, already printed with its bytes.
            guard message.values > 1 else { return }
            console.out(Self.margin + "\(arrow) \(message.characteristic) data\(spans)  \(bytes)")
        case let .unknown(reason):
            console.out(Self.margin + "\(arrow) \(message.characteristic) message\(spans)  \(bytes)")
            console.out(Self.margin + "   not read: \(reason)")
        case let .decoded(decoded):
            var title = "\(decoded.name) \(decoded.kind.rawValue)"
            if !decoded.alternatives.isEmpty { title += " (or " + decoded.alternatives.joined(separator: ", ") + ")" }
            if decoded.unsolicited { title += " (no request waited for it)" }
            console.out(Self.margin + "\(arrow) \(title)\(spans)  \(bytes)" + (decoded.status.map { "  status: \($0)" } ?? ""))
            if !decoded.fields.isEmpty {
                console.out(Self.margin + "   " + decoded.fields.map { "\($0.name)=\(TraceValueText.describe($0.value))" }
                    .joined(separator: " "))
            }
            for problem in decoded.problems { console.out(Self.margin + "   !! does not verify: " + problem) }
        }
    }

    func end(_ report: FlashReport, generic: Bool) {
        guard let error = report.error else {
            console.out("the procedure ran to its end: \(report.status.rawValue)")
            return
        }
        console.out("the procedure stopped: \(error)")
        if generic, let hint = TraceOutcome.genericHint(error) { console.out("note: " + hint) }
    }
}
