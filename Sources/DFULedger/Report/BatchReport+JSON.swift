import DFUBytes

extension BatchReport {
    /// The report as one JSON object, keys in this order: `ledger`, `generated_at`, `devices`,
    /// `succeeded`, `failed`, `cancelled`, `skipped`, `attempts`, `failed_attempts`, `stations`,
    /// `packages`, `profiles`, `clock` (`wall`, `simulated` or `mixed`: what the times and rates
    /// below were measured on), `started_at`, `ended_at` (null when empty), `wall_seconds` (the
    /// span), `busy_seconds` (the span without pauses between runs), `attempt_seconds` (every
    /// attempt's own seconds added up), `devices_per_hour` (succeeded per busy hour), `by_cause`
    /// (object: error kind -> failed attempts, most frequent first), `rows` (one object per device:
    /// `device`, `serial`, `package_sha256`, `profile`, `station`, `result`, `attempts`, `seconds`
    /// (the deciding attempt's), `total_seconds` (all its attempts'), `bytes`, `bytes_per_second`,
    /// `started_at`, `ended_at`, `last_error_kind`, `last_error_message`, `device_version`),
    /// `line_events` (one object per halt, resume, quarantine or release, in order: `kind`, `line`,
    /// `at`, `station`, `operator`, `reason`, `rule`, `attempts` (the halt's), `device`,
    /// `package_sha256`; null where it does not apply). Times
    /// are UTC ISO 8601 with milliseconds; seconds and rates have at most three decimals. Ends
    /// with a newline.
    public func renderJSON() -> String {
        JSONValue.object([
            ("ledger", .string(ledger)),
            ("generated_at", .string(ReportFormatting.timestamp(generatedAt))),
            ("devices", .count(devices)),
            ("succeeded", .count(succeeded)),
            ("failed", .count(failed)),
            ("cancelled", .count(cancelled)),
            ("skipped", .count(skipped)),
            ("attempts", .count(attempts)),
            ("failed_attempts", .count(failedAttempts)),
            ("stations", .array(stations.map(JSONValue.string))),
            ("packages", .array(packages.map(JSONValue.string))),
            ("profiles", .array(profiles.map(JSONValue.string))),
            ("clock", .string(clock.rawValue)),
            ("started_at", .optional(startedAt.map(ReportFormatting.timestamp))),
            ("ended_at", .optional(endedAt.map(ReportFormatting.timestamp))),
            ("wall_seconds", .decimal(wallSeconds)),
            ("busy_seconds", .decimal(busySeconds)),
            ("attempt_seconds", .decimal(attemptSeconds)),
            ("devices_per_hour", .decimal(devicesPerHour)),
            ("by_cause", .object(byCause.map { ($0.kind, .count($0.attempts)) })),
            ("rows", .array(rows.map { row in
                .object([
                    ("device", .string(row.device)),
                    ("serial", .optional(row.serial)),
                    ("package_sha256", .string(row.packageSHA256)),
                    ("profile", .string(row.profile)),
                    ("station", .string(row.station)),
                    ("result", .string(row.result.rawValue)),
                    ("attempts", .count(row.attempts)),
                    ("seconds", .decimal(row.seconds)),
                    ("total_seconds", .decimal(row.totalSeconds)),
                    ("bytes", .count(row.bytes)),
                    ("bytes_per_second", .decimal(row.bytesPerSecond)),
                    ("started_at", .string(ReportFormatting.timestamp(row.startedAt))),
                    ("ended_at", .string(ReportFormatting.timestamp(row.endedAt))),
                    ("last_error_kind", .optional(row.lastErrorKind)),
                    ("last_error_message", .optional(row.lastErrorMessage)),
                    ("device_version", .optional(row.deviceVersion)),
                ])
            })),
            ("line_events", .array(lineEvents.map { event in
                .object([
                    ("kind", .string(event.kind.rawValue)),
                    ("line", .optional(event.line)),
                    ("at", .string(ReportFormatting.timestamp(event.at))),
                    ("station", .optional(event.station)),
                    ("operator", .optional(event.operatorName)),
                    ("reason", .optional(event.reason)),
                    ("rule", .optional(event.rule)),
                    ("attempts", .array(event.attempts.map(JSONValue.string))),
                    ("device", .optional(event.device)),
                    ("package_sha256", .optional(event.packageSHA256)),
                ])
            })),
        ]).prettyText
    }
}

extension JSONValue {
    /// A string, or null when there is none.
    fileprivate static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    fileprivate static func count(_ value: Int) -> JSONValue { .integer(Int64(value)) }

    /// Seconds and rates: at most three decimals, as in the text and HTML reports.
    fileprivate static func decimal(_ value: Double) -> JSONValue { .number((value * 1000).rounded() / 1000) }
}
