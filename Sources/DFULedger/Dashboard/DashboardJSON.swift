import DFUBytes
import Foundation

/// The dashboard's JSON values: times as `2026-12-02T20:45:00.000Z` (UTC, milliseconds),
/// numbers with at most three decimals, `null` for nil.
enum DashboardJSON {
    static func time(_ date: Date) -> JSONValue { .string(ReportFormatting.timestamp(date)) }

    static func text(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    static func count(_ value: Int) -> JSONValue { .integer(Int64(value)) }

    static func count(_ value: Int?) -> JSONValue { value.map { .integer(Int64($0)) } ?? .null }

    static func decimal(_ value: Double) -> JSONValue { .number((value * 1000).rounded() / 1000) }

    static func decimal(_ value: Double?) -> JSONValue { value.map(decimal) ?? .null }

    /// A device in flight, as `inFlight` and a device's `live` list it.
    static func live(_ row: LiveDevice) -> JSONValue {
        .object([
            ("device", .string(row.device)),
            ("station", .string(row.station)),
            ("radio", text(row.radio)),
            ("line", text(row.line)),
            ("attempt", count(row.attempt)),
            ("phase", .string(row.phase)),
            ("done", count(row.done)),
            ("total", count(row.total)),
            ("bytesPerSecond", decimal(row.bytesPerSecond)),
            ("rssi", count(row.rssi)),
            ("phy", text(row.phy)),
            ("mtu", count(row.mtu)),
            ("startedAt", time(row.startedAt)),
            ("updatedAt", time(row.updatedAt)),
        ])
    }

    /// An attempt's members as `recentAttempts` lists them.
    static func attempt(_ attempt: Attempt, audited: Bool) -> [(key: String, value: JSONValue)] {
        [
            ("device", .string(attempt.device)),
            ("attempt", count(attempt.attemptNumber)),
            ("station", .string(attempt.station)),
            ("radio", text(attempt.radio)),
            ("line", text(attempt.line)),
            ("result", .string(attempt.result.rawValue)),
            ("errorKind", text(attempt.errorKind)),
            ("errorMessage", text(attempt.errorMessage)),
            ("startedAt", time(attempt.startedAt)),
            ("endedAt", time(attempt.endedAt)),
            ("seconds", decimal(attempt.seconds)),
            ("bytes", count(attempt.bytes)),
            ("audited", .bool(audited)),
        ]
    }

    /// A line control, as `events` lists it.
    static func event(_ event: LineEvent) -> JSONValue {
        .object([
            ("kind", .string(event.kind.rawValue)),
            ("line", text(event.line)),
            ("at", time(event.at)),
            ("station", text(event.station)),
            ("operator", text(event.operatorName)),
            ("reason", text(event.reason)),
            ("rule", text(event.rule)),
            ("device", text(event.device)),
        ])
    }

    /// The value as one line of compact JSON, in UTF-8.
    static func data(_ value: JSONValue) -> Data { Data(value.compactText.utf8) }
}
