import DFUKit
import DFUTrace

/// What a trace starts with.
struct TraceHeader {
    var profile: String
    var profilePath: String
    var device: String
    var clock: String
    var images: [(name: String, size: Int)]
}

/// Prints a trace as it happens.
protocol TracePrinter: AnyObject {
    func begin(_ header: TraceHeader)
    func print(_ event: TraceEvent)
    func end(_ report: FlashReport, generic: Bool)
}

/// How traces tell the outcome.
enum TraceOutcome {
    /// Why a generic device took the procedure no further, for the end of a trace that stopped
    /// on the device's side.
    static func genericHint(_ error: FlashError) -> String? {
        switch error.kind {
        case .device:
            return "the generic device answers what a successful answer holds (constant fields, success statuses, "
                + "fields the response's match ties to the request) and zero for what only a real device knows "
                + "(offsets, checksums of what it received): a check or expect over those stops the procedure here. "
                + "Trace against a simulator (--device sim:NAME) or a device to go further."
        case .timeout:
            return "the generic device answers requests only: it sends no receipt notifications and nothing an await "
                + "step waits for. Trace against a simulator (--device sim:NAME) or a device to go further."
        default:
            return nil
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// A value's text in a trace: integers in decimal (with hex above 9), bytes in hex (the first
/// 32 and the count when longer), records and lists written out.
enum TraceValueText {
    static func describe(_ value: Value) -> String {
        switch value {
        case let .integer(number): return number > 9 ? "\(number) (0x\(String(number, radix: 16)))" : "\(number)"
        case let .boolean(flag): return "\(flag)"
        case let .bytes(bytes):
            if bytes.isEmpty { return "(0 bytes)" }
            let shown = bytes.prefix(32).map(hex).joined()
            return bytes.count > 32 ? "\(shown)... (\(bytes.count) bytes)" : shown
        case let .string(text): return "'\(text)'"
        case let .record(fields):
            return "{" + fields.keys.sorted().map { "\($0): \(describe(fields[$0]!))" }.joined(separator: ", ") + "}"
        case let .list(items): return "[" + items.map(describe).joined(separator: ", ") + "]"
        }
    }

    static func hex(_ byte: UInt8) -> String {
        byte < 0x10 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
    }

    /// `01 00 05`.
    static func spaced(_ bytes: [UInt8]) -> String {
        bytes.isEmpty ? "(empty)" : bytes.map(hex).joined(separator: " ")
    }
}
