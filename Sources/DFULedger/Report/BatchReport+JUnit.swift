extension BatchReport {
    /// JUnit XML for CI systems: one `<testsuite>` (inside `<testsuites>`), one `<testcase>` per
    /// device (`classname` the profile, `name` the address, `time` the seconds of all its attempts),
    /// a `<failure message="KIND: MESSAGE" type="KIND">` for devices that failed and `<skipped>` for
    /// cancelled ones and for those skipped as already running the target; `<system-out>` lists each device's attempts,
    /// and the suite's own `<system-out>` the line controls (halts, resumes, quarantines, releases)
    /// when there are any. Ends with a newline.
    public func renderJUnit(suiteName: String = "dfukit batch") -> String {
        let escape = MarkupEscaping.text
        let attribute = MarkupEscaping.attribute
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let counts = "tests=\"\(devices)\" failures=\"\(failed)\" errors=\"0\" skipped=\"\(cancelled + skipped)\" "
            + "time=\"\(ReportFormatting.fixed(wallSeconds, digits: 3))\""
        xml += "<testsuites name=\"\(attribute(suiteName))\" \(counts)>\n"
        xml += "  <testsuite name=\"\(attribute(suiteName))\" \(counts)"
        if let startedAt { xml += " timestamp=\"\(ReportFormatting.timestamp(startedAt))\"" }
        xml += ">\n"
        xml += "    <properties>\n"
        xml += "      <property name=\"ledger\" value=\"\(attribute(ledger))\"/>\n"
        xml += "      <property name=\"attempts\" value=\"\(attempts)\"/>\n"
        for station in stations { xml += "      <property name=\"station\" value=\"\(attribute(station))\"/>\n" }
        for package in packages { xml += "      <property name=\"package_sha256\" value=\"\(attribute(package))\"/>\n" }
        xml += "    </properties>\n"
        for row in rows {
            xml += "    <testcase classname=\"\(attribute(row.profile))\" name=\"\(attribute(row.device))\" "
                + "time=\"\(ReportFormatting.fixed(row.totalSeconds, digits: 3))\">\n"
            switch row.result {
            case .failed:
                let kind = row.lastErrorKind ?? "unknown"
                let message = row.lastErrorMessage.map { "\(kind): \($0)" } ?? kind
                xml += "      <failure message=\"\(attribute(message))\" type=\"\(attribute(kind))\">"
                    + "\(escape(message))</failure>\n"
            case .cancelled:
                xml += "      <skipped message=\"cancelled\"/>\n"
            case .skipped:
                xml += "      <skipped message=\"\(attribute("already running the target firmware" + (row.deviceVersion.map { " (\($0))" } ?? "")))\"/>\n"
            case .succeeded:
                break
            }
            var out = "package \(row.packageSHA256), station \(row.station), \(row.attempts) attempt"
                + "\(row.attempts == 1 ? "" : "s"), \(row.bytes) bytes, \(ReportFormatting.throughput(row.bytesPerSecond))"
            if let serial = row.serial { out += ", serial \(serial)" }
            xml += "      <system-out>\(escape(out))</system-out>\n"
            xml += "    </testcase>\n"
        }
        if !lineEvents.isEmpty {
            let text = lineEvents.map { "\(ReportFormatting.timestamp($0.at)) \(Self.describe($0))" }.joined(separator: "\n")
            xml += "    <system-out>\(escape(text))</system-out>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }
}
