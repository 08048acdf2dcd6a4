extension BatchReport {
    /// A short summary for a terminal: counts, stations, packages, time span, failures by cause,
    /// the devices that did not succeed, and the verdict. Ends with a newline.
    public func renderText() -> String {
        var lines = ["ledger:     \(ledger)"]
        var counts = "devices:    \(devices): \(succeeded) succeeded, \(failed) failed"
        if cancelled > 0 { counts += ", \(cancelled) cancelled" }
        counts += " (\(attempts) attempt\(attempts == 1 ? "" : "s"))"
        lines.append(counts)
        if !stations.isEmpty { lines.append("stations:   \(stations.joined(separator: ", "))") }
        if !packages.isEmpty {
            lines.append("packages:   \(packages.map(ReportFormatting.shortDigest).joined(separator: ", "))"
                         + " (\(profiles.joined(separator: ", ")))")
        }
        if let startedAt, let endedAt {
            lines.append("time:       \(ReportFormatting.timestamp(startedAt)) to \(ReportFormatting.timestamp(endedAt)) "
                         + "(\(ReportFormatting.fixed(wallSeconds, digits: 1)) s, "
                         + "\(ReportFormatting.fixed(devicesPerHour, digits: 1)) devices/hour)")
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
        let unfinished = rows.filter { $0.result != .succeeded }
        if !unfinished.isEmpty {
            lines.append("devices that did not succeed:")
            for row in unfinished {
                var line = "  \(row.device)  \(row.result.rawValue) after \(row.attempts) attempt\(row.attempts == 1 ? "" : "s")"
                if let kind = row.lastErrorKind {
                    line += ": \(kind)"
                    if let message = row.lastErrorMessage { line += ": \(message)" }
                }
                lines.append(line)
            }
        }
        lines.append("result:     \(verdict)")
        return lines.joined(separator: "\n") + "\n"
    }
}
