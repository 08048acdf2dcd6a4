import Foundation

/// One attempt in the ledger with its audit record, if it has one (`Ledger.auditEntries`).
public struct AuditEntry: Sendable, Hashable {
    /// The device's address.
    public var device: String
    /// The attempt's number at the device and package.
    public var attempt: Int
    /// The station that made it.
    public var station: String
    /// When it started.
    public var startedAt: Date
    /// Its signed record; nil when none was stored (a line run without an audit key, an older
    /// DFUKit, or a deleted row).
    public var record: SignedAuditRecord?

    /// The entry of attempt `attempt` at `device`, made by `station`, with `record`.
    public init(device: String, attempt: Int, station: String, startedAt: Date, record: SignedAuditRecord?) {
        self.device = device
        self.attempt = attempt
        self.station = station
        self.startedAt = startedAt
        self.record = record
    }
}
