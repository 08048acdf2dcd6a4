import DFUBytes
import Foundation

extension AuditRecord {
    /// The signed bytes: the record as JSON with every object's keys sorted and no whitespace,
    /// absent values as `null`, times as ISO 8601 UTC with milliseconds.
    public var canonicalJSON: String { json.sortingKeys.compactText }

    /// The record as a JSON tree (keys in any order; `canonicalJSON` sorts them).
    var json: JSONValue {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        func integer(_ value: Int?) -> JSONValue { value.map { .integer(Int64($0)) } ?? .null }
        let linkValue: JSONValue = link.map { link in
            .object([
                ("source", .string(link.source)), ("tx_phy", text(link.txPHY)), ("rx_phy", text(link.rxPHY)),
                ("tx_octets", integer(link.txOctets)), ("rx_octets", integer(link.rxOctets)), ("mtu", integer(link.mtu)),
                ("interval_us", integer(link.intervalMicroseconds)), ("latency", integer(link.latency)),
                ("supervision_timeout_ms", integer(link.supervisionTimeoutMilliseconds)),
            ])
        } ?? .null
        return .object([
            ("format", .string(Self.format)), ("version", .integer(Int64(Self.version))),
            ("address", .string(address)), ("serial", text(serial)), ("hardware_id", text(hardwareID)),
            ("profile", .string(profile)), ("package_sha256", .string(packageSHA256)),
            ("images", .array(images.map { .object([("name", .string($0.name)), ("version", .string($0.version)),
                                                   ("sha256", .string($0.sha256))]) })),
            ("version_before", text(versionBefore)), ("version_after", text(versionAfter)),
            ("result", .string(result)), ("error_kind", text(errorKind)), ("error_message", text(errorMessage)),
            ("device_holds", .array(deviceHolds.map(JSONValue.string))), ("evidence", text(evidence)),
            ("link", linkValue), ("bytes", .integer(Int64(bytes))), ("retries", .integer(Int64(retries))),
            ("resumes", .integer(Int64(resumes))), ("attempt", .integer(Int64(attempt))), ("claim_id", .string(claimID)),
            ("station", .string(station)), ("operator", text(operatorName)),
            ("started_at", .string(Self.timestamp(startedAt))), ("ended_at", .string(Self.timestamp(endedAt))),
            ("seconds", .number((seconds * 1000).rounded() / 1000)), ("clock", .string(clock)),
        ])
    }

    /// `2026-12-01T09:30:00.125Z`: UTC, milliseconds.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
