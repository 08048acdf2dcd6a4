import Foundation

/// Which attempts a query returns; every field left nil matches everything.
public struct AttemptFilter: Sendable, Hashable {
    /// Only this device's attempts.
    public var device: String?
    /// Only attempts with the package of this SHA-256 (lowercase hex).
    public var packageSHA256: String?
    /// Only this station's attempts.
    public var station: String?
    /// Attempts that started at or after this date.
    package var since: Date?

    /// A filter on the fields given; nil fields match everything.
    public init(device: String? = nil, packageSHA256: String? = nil, station: String? = nil, since: Date? = nil) {
        self.device = device
        self.packageSHA256 = packageSHA256
        self.station = station
        self.since = since
    }

    /// Every attempt.
    public static let all = AttemptFilter()

    /// Whether `attempt` passes the filter (the same rule the SQL `WHERE` clauses apply).
    public func matches(_ attempt: Attempt) -> Bool {
        (device.map { $0 == attempt.device } ?? true)
            && (packageSHA256.map { $0 == attempt.packageSHA256 } ?? true)
            && (station.map { $0 == attempt.station } ?? true)
            && (since.map { attempt.startedAt >= $0 } ?? true)
    }
}
