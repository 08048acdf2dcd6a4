import DFUBytes
import Foundation

/// One device's history in a ledger (`GET /api/devices/ADDRESS`): its attempts with their audit
/// records, its quarantines and releases, and its live row while it is in flight.
public struct DeviceHistory: Sendable, Hashable {
    /// The device's address.
    public var device: String
    /// The device's row in flight on a station that is still there (the newest, when several),
    /// or nil.
    public var live: LiveDevice?
    /// Every attempt at the device (any package), in the order recorded, each with its audit
    /// record (nil when none is stored).
    public var attempts: [Entry]
    /// Its quarantines and releases, in the order recorded.
    public var events: [LineEvent]

    /// One attempt and its audit record.
    public struct Entry: Sendable, Hashable {
        /// The attempt as recorded.
        public var attempt: Attempt
        /// Its signed audit record, nil when none is stored.
        public var audit: SignedAuditRecord?

        /// `attempt` with `audit`.
        public init(attempt: Attempt, audit: SignedAuditRecord?) {
            self.attempt = attempt
            self.audit = audit
        }
    }

    /// A history of these parts.
    public init(device: String, live: LiveDevice?, attempts: [Entry], events: [LineEvent]) {
        self.device = device
        self.live = live
        self.attempts = attempts
        self.events = events
    }

    /// Reads `device`'s history from `ledger` as of `now` (which decides whether its station is
    /// gone); nil when the ledger has neither an attempt nor a live row of it (the server's 404).
    public static func load(device: String, from ledger: any Ledger,
                            now: Date = Date()) async throws(LedgerError) -> DeviceHistory? {
        let filter = AttemptFilter(device: device)
        let attempts = try await ledger.attempts(filter)
        let visibility = LiveVisibility(stations: try await ledger.stations(), now: now)
        let live = try await ledger.liveDevices().filter { $0.device == device && visibility.isVisible($0) }
            .max { $0.updatedAt < $1.updatedAt }
        guard !attempts.isEmpty || live != nil else { return nil }
        var records: [AuditKey: SignedAuditRecord] = [:]
        for entry in try await ledger.auditEntries(filter) {
            if let record = entry.record { records[AuditKey(entry: entry)] = record }
        }
        let events = try await ledger.lineEvents(line: nil).filter {
            $0.device == device && ($0.kind == .quarantined || $0.kind == .released)
        }
        return DeviceHistory(device: device, live: live,
                             attempts: attempts.map { Entry(attempt: $0, audit: records[AuditKey(attempt: $0)]) },
                             events: events)
    }
}

extension DeviceHistory: Encodable {
    /// The history as the contract's JSON object: `device`, `live` (as in the snapshot's
    /// `inFlight`, or null), `attempts` (as the snapshot's `recentAttempts`, with `packageSHA256`,
    /// `profile` and `audit`: `record` (the signed canonical JSON as an object), `signature`,
    /// `keyId`, or null), `events` (as the snapshot's).
    public var json: JSONValue {
        .object([
            ("device", .string(device)),
            ("live", live.map(DashboardJSON.live) ?? .null),
            ("attempts", .array(attempts.map { entry in
                .object(DashboardJSON.attempt(entry.attempt, audited: entry.audit != nil) + [
                    ("packageSHA256", .string(entry.attempt.packageSHA256)),
                    ("profile", .string(entry.attempt.profile)),
                    ("audit", entry.audit.map { audit in
                        .object([
                            ("record", (try? JSONValue.parse(Array(audit.canonicalJSON.utf8))) ?? .string(audit.canonicalJSON)),
                            ("signature", .string(audit.signature)),
                            ("keyId", .string(audit.keyID)),
                        ])
                    } ?? .null),
                ])
            })),
            ("events", .array(events.map(DashboardJSON.event))),
        ])
    }

    /// The history as compact UTF-8 JSON.
    public func jsonData() -> Data { DashboardJSON.data(json) }

    /// Encodes `json`: the same members, with `null` for nil.
    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }
}
