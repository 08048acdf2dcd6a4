extension BatchReport {
    /// The report as one JSON object, keys in this order: `ledger`, `generated_at`, `devices`,
    /// `succeeded`, `failed`, `cancelled`, `attempts`, `failed_attempts`, `stations`, `packages`,
    /// `profiles`, `started_at`, `ended_at` (null when empty), `wall_seconds`, `devices_per_hour`,
    /// `by_cause` (object: error kind -> failed attempts, most frequent first), `rows` (one object per
    /// device: `device`, `serial`, `package_sha256`, `profile`, `station`, `result`, `attempts`,
    /// `seconds`, `total_seconds`, `bytes`, `bytes_per_second`, `started_at`, `ended_at`,
    /// `last_error_kind`, `last_error_message`). Times are UTC ISO 8601 with milliseconds; seconds
    /// and rates have at most three decimals. Ends with a newline.
    public func renderJSON() -> String {
        ReportJSON.object([
            ("ledger", .string(ledger)),
            ("generated_at", .string(ReportFormatting.timestamp(generatedAt))),
            ("devices", .integer(devices)),
            ("succeeded", .integer(succeeded)),
            ("failed", .integer(failed)),
            ("cancelled", .integer(cancelled)),
            ("attempts", .integer(attempts)),
            ("failed_attempts", .integer(failedAttempts)),
            ("stations", .array(stations.map(ReportJSON.string))),
            ("packages", .array(packages.map(ReportJSON.string))),
            ("profiles", .array(profiles.map(ReportJSON.string))),
            ("started_at", .optional(startedAt.map(ReportFormatting.timestamp))),
            ("ended_at", .optional(endedAt.map(ReportFormatting.timestamp))),
            ("wall_seconds", .number(wallSeconds)),
            ("devices_per_hour", .number(devicesPerHour)),
            ("by_cause", .object(byCause.map { ($0.kind, .integer($0.attempts)) })),
            ("rows", .array(rows.map { row in
                .object([
                    ("device", .string(row.device)),
                    ("serial", .optional(row.serial)),
                    ("package_sha256", .string(row.packageSHA256)),
                    ("profile", .string(row.profile)),
                    ("station", .string(row.station)),
                    ("result", .string(row.result.rawValue)),
                    ("attempts", .integer(row.attempts)),
                    ("seconds", .number(row.seconds)),
                    ("total_seconds", .number(row.totalSeconds)),
                    ("bytes", .integer(row.bytes)),
                    ("bytes_per_second", .number(row.bytesPerSecond)),
                    ("started_at", .string(ReportFormatting.timestamp(row.startedAt))),
                    ("ended_at", .string(ReportFormatting.timestamp(row.endedAt))),
                    ("last_error_kind", .optional(row.lastErrorKind)),
                    ("last_error_message", .optional(row.lastErrorMessage)),
                ])
            })),
        ]).text
    }
}
