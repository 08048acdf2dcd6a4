import DFUBytes
import Foundation

extension StationDashboardSnapshot: Encodable {
    /// The snapshot as the contract's JSON object, members in the contract's order.
    public var json: JSONValue {
        typealias J = DashboardJSON
        return .object([
            ("version", J.count(version)),
            ("generatedAt", J.time(generatedAt)),
            ("ledger", .string(ledger)),
            ("line", J.text(line)),
            ("controls", .object([("enabled", .bool(controlsEnabled))])),
            ("lines", .array(lines.map { line in
                .object([
                    ("name", .string(line.name)),
                    ("state", .string(line.state)),
                    ("halt", line.halt.map { halt in
                        .object([
                            ("at", J.time(halt.at)),
                            ("station", J.text(halt.station)),
                            ("rule", J.text(halt.rule)),
                            ("reason", J.text(halt.reason)),
                            ("attempts", .array(halt.attempts.map(JSONValue.string))),
                        ])
                    } ?? .null),
                ])
            })),
            ("stations", .array(stations.map { station in
                .object([
                    ("name", .string(station.status.station)),
                    ("host", .string(station.status.host)),
                    ("pid", J.count(station.status.pid)),
                    ("line", J.text(station.status.line)),
                    ("state", .string(station.state.rawValue)),
                    ("startedAt", J.time(station.status.startedAt)),
                    ("seenAt", J.time(station.status.seenAt)),
                    ("radios", .array(station.radios.map { radio in
                        .object([("name", .string(radio.name)), ("inFlight", J.count(radio.inFlight))])
                    })),
                ])
            })),
            ("inFlight", .array(inFlight.map(J.live))),
            ("totals", .object([
                ("devices", J.count(totals.devices)),
                ("done", J.count(totals.done)),
                ("failed", J.count(totals.failed)),
                ("inFlight", J.count(totals.inFlight)),
                ("quarantined", J.count(totals.quarantined)),
                ("attempts", J.count(totals.attempts)),
                ("yield", J.decimal(totals.yield)),
                ("firstPassYield", J.decimal(totals.firstPassYield)),
                ("devicesPerHour", J.decimal(totals.devicesPerHour)),
            ])),
            ("hourly", .array(hourly.map { hour in
                .object([("hour", J.time(hour.hour)), ("done", J.count(hour.done)), ("failed", J.count(hour.failed))])
            })),
            ("failuresByCause", .array(failuresByCause.map { cause in
                .object([("cause", .string(cause.cause)), ("attempts", J.count(cause.attempts)),
                         ("devices", J.count(cause.devices))])
            })),
            ("recentAttempts", .array(recentAttempts.map { .object(J.attempt($0.attempt, audited: $0.audited)) })),
            ("events", .array(events.map(J.event))),
        ])
    }

    /// The snapshot as compact UTF-8 JSON on one line (fit for a server-sent event's `data:`).
    public func jsonData() -> Data { DashboardJSON.data(json) }

    /// Encodes `json`: the same members, with `null` for nil.
    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }
}
