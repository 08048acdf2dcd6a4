extension BatchReport {
    /// A short summary for a terminal: counts, stations, packages, time span and rate (on the
    /// clock the attempts ran on, said when simulated), time per device over all its attempts,
    /// failures by cause, the devices that did not succeed, the line controls (when there are
    /// any), and the verdict. Ends with a newline.
    public func renderText() -> String {
        var lines = ["ledger:     \(ledger)"]
        var counts = "devices:    \(devices): \(succeeded) succeeded, \(failed) failed"
        if cancelled > 0 { counts += ", \(cancelled) cancelled" }
        if skipped > 0 { counts += ", \(skipped) skipped (already running the target)" }
        counts += " (\(attempts) attempt\(attempts == 1 ? "" : "s"))"
        lines.append(counts)
        if !stations.isEmpty { lines.append("stations:   \(stations.joined(separator: ", "))") }
        if !packages.isEmpty {
            lines.append("packages:   \(packages.map(ReportFormatting.shortDigest).joined(separator: ", "))"
                         + " (\(profiles.joined(separator: ", ")))")
        }
        if let startedAt, let endedAt {
            let clock = clockNote
            var time = "time:      \(clock.isEmpty ? "" : clock) \(ReportFormatting.timestamp(startedAt)) to "
                + "\(ReportFormatting.timestamp(endedAt)) (\(ReportFormatting.fixed(wallSeconds, digits: 1)) s"
            if busySeconds < wallSeconds - 0.05 {
                time += ", busy \(ReportFormatting.fixed(busySeconds, digits: 1)) s"
            }
            time += ", \(ReportFormatting.fixed(devicesPerHour, digits: 1)) devices/hour\(clock))"
            lines.append(time)
        }
        if let spread = DurationSpread(rows.filter { $0.result != .skipped }.map(\.totalSeconds)) {
            lines.append("per device: \(ReportFormatting.fixed(spread.median, digits: 1)) s median, "
                         + "\(ReportFormatting.fixed(spread.p95, digits: 1)) s p95, "
                         + "\(ReportFormatting.fixed(spread.maximum, digits: 1)) s max, over all its attempts "
                         + "(\(ReportFormatting.fixed(attemptSeconds, digits: 1)) s in all)")
        }
        if skipped > 0 {
            var versions: [String: Int] = [:]
            for row in rows where row.result == .skipped { versions[row.deviceVersion ?? "?", default: 0] += 1 }
            let listed = versions.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(5)
                .map { "\($0.key): \($0.value)" }.joined(separator: ", ")
            lines.append("skipped:    \(skipped) already ran the target (version seen \(listed)"
                         + (versions.count > 5 ? ", ..." : "") + ")")
        }
        if !byCause.isEmpty {
            lines.append("failed attempts by cause:")
            let width = byCause.map(\.kind.count).max() ?? 0
            for cause in byCause {
                lines.append("  " + cause.kind.padding(toLength: width, withPad: " ", startingAt: 0)
                             + "  \(cause.attempts) attempt\(cause.attempts == 1 ? "" : "s") on \(cause.devices) "
                             + "device\(cause.devices == 1 ? "" : "s")")
            }
        }
        let unfinished = rows.filter { !$0.result.marksDone }
        if !unfinished.isEmpty {
            lines.append("devices that did not succeed:")
            for row in unfinished {
                var line = "  \(row.device)  \(row.result.rawValue) after \(row.attempts) attempt\(row.attempts == 1 ? "" : "s")"
                    + " (\(ReportFormatting.fixed(row.totalSeconds, digits: 1)) s)"
                if let kind = row.lastErrorKind {
                    line += ": \(kind)"
                    if let message = row.lastErrorMessage { line += ": \(message)" }
                }
                lines.append(line)
            }
        }
        if !lineEvents.isEmpty {
            lines.append("line controls (halts, resumes, quarantines, releases):")
            for event in lineEvents {
                lines.append("  \(ReportFormatting.timestamp(event.at))  \(Self.describe(event))")
                for attempt in event.attempts { lines.append("      \(attempt)") }
            }
        }
        lines.append("result:     \(verdict)")
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Median, 95th percentile and maximum of some durations (nearest rank).
struct DurationSpread: Equatable {
    var median: Double
    var p95: Double
    var maximum: Double

    init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        func rank(_ fraction: Double) -> Double {
            sorted[min(sorted.count - 1, max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))]
        }
        median = rank(0.5)
        p95 = rank(0.95)
        maximum = sorted[sorted.count - 1]
    }
}
