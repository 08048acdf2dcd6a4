extension BatchReport {
    /// A self-contained HTML page (inline CSS and SVG; no scripts, fonts or other requests):
    /// the summary; up to `SVGBarChart.maximumBars` devices, bar charts of each device's time (all
    /// its attempts) and throughput (SVG ids `chart-duration`, `chart-throughput`), past that
    /// histograms of the same (`chart-duration-histogram`, `chart-throughput-histogram`); the
    /// stations' timeline (`chart-timeline`); failed attempts by cause (`chart-causes`); and a
    /// table of every device. Every chart's height is bounded whatever the number of devices.
    /// Times and rates are on the attempts' clock, said when simulated. Every text from the
    /// ledger is escaped.
    public func renderHTML(title: String = "DFUKit batch report") -> String {
        let escape = MarkupEscaping.text
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title))</title>
            <style>\(Self.styleSheet)</style>
            </head>
            <body>
            <h1>\(escape(title))</h1>
            <p class="meta">Ledger <code>\(escape(ledger))</code> · generated \(ReportFormatting.timestamp(generatedAt))</p>

            """
        html += "<div class=\"cards\">\n"
        var cards: [(String, String, String)] = [
            ("Devices", String(devices), ""), ("Succeeded", String(succeeded), "succeeded"),
            ("Failed", String(failed), failed > 0 ? "failed" : ""), ("Cancelled", String(cancelled), ""),
        ]
        if skipped > 0 { cards.append(("Skipped (already running the target)", String(skipped), "")) }
        cards += [
            ("Attempts", String(attempts), ""),
            ("Devices / hour" + clockNote, ReportFormatting.fixed(devicesPerHour, digits: 1), ""),
            ("Time" + clockNote, "\(ReportFormatting.fixed(wallSeconds, digits: 1)) s", ""),
        ]
        for (label, value, style) in cards {
            html += "<div class=\"card \(style)\"><div class=\"value\">\(escape(value))</div>"
                + "<div class=\"label\">\(escape(label))</div></div>\n"
        }
        html += "</div>\n"
        let verdictStyle = failed == 0 && cancelled == 0 && devices > 0 ? "ok" : "bad"
        html += "<p id=\"verdict\" class=\"verdict \(verdictStyle)\">\(escape(verdict.prefix(1).uppercased() + verdict.dropFirst()))</p>\n"
        if let startedAt, let endedAt {
            html += "<p class=\"meta\">From \(ReportFormatting.timestamp(startedAt)) to \(ReportFormatting.timestamp(endedAt)); "
                + "stations \(escape(stations.joined(separator: ", "))); profiles \(escape(profiles.joined(separator: ", "))); "
                + "packages \(escape(packages.map(ReportFormatting.shortDigest).joined(separator: ", ")))</p>\n"
        }
        let legend = "<p class=\"legend\"><span class=\"swatch succeeded\"></span>succeeded "
            + "<span class=\"swatch failed\"></span>failed <span class=\"swatch cancelled\"></span>cancelled "
            + "<span class=\"swatch skipped\"></span>skipped</p>\n"
        if rows.count <= SVGBarChart.maximumBars {
            html += "<h2>Time per device (all its attempts)</h2>\n" + legend + durationChart.render() + "\n"
            html += "<h2>Throughput per device</h2>\n" + throughputChart.render() + "\n"
        } else {
            html += "<h2>Time per device (all its attempts)</h2>\n" + legend + durationHistogram.render() + "\n"
            html += "<h2>Throughput per device</h2>\n" + throughputHistogram.render() + "\n"
        }
        html += "<h2>Stations over time</h2>\n" + SVGTimeline(id: "chart-timeline", title: "Attempts per station over time",
                                                             spans: spans, clockNote: clockNote).render() + "\n"
        html += "<h2>Failed attempts by cause</h2>\n" + causesChart.render() + "\n"
        html += deviceTable
        html += lineControlTable
        html += "</body>\n</html>\n"
        return html
    }

    private var durationChart: SVGBarChart {
        SVGBarChart(id: "chart-duration", title: "Time per device, all its attempts (seconds\(clockNote))", unit: "s",
                    bars: rows.map { row in
            .init(label: row.device, value: row.totalSeconds,
                  valueText: "\(ReportFormatting.fixed(row.totalSeconds, digits: 1)) s", style: row.result.rawValue,
                  tooltip: Self.timeTooltip(row))
        })
    }

    /// `DEVICE: succeeded after 3 attempts, 189.60 s in all (the last 7.92 s)`.
    static func timeTooltip(_ row: Row) -> String {
        let total = ReportFormatting.fixed(row.totalSeconds, digits: 2)
        guard row.attempts > 1 else { return "\(row.device): \(row.result.rawValue) in \(total) s (1 attempt)" }
        return "\(row.device): \(row.result.rawValue) after \(row.attempts) attempts, \(total) s in all "
            + "(the deciding one \(ReportFormatting.fixed(row.seconds, digits: 2)) s)"
    }

    private static let resultStyles = ["succeeded", "skipped", "cancelled", "failed"]

    private var durationHistogram: SVGHistogram {
        SVGHistogram(id: "chart-duration-histogram", title: "Devices by time, all their attempts (seconds\(clockNote))",
                     unit: "s", counted: "devices",
                     items: rows.map { .init(value: $0.totalSeconds, style: $0.result.rawValue) }, styles: Self.resultStyles)
    }

    private var throughputHistogram: SVGHistogram {
        SVGHistogram(id: "chart-throughput-histogram", title: "Devices by throughput of the deciding attempt (kB/s)",
                     unit: "kB/s", counted: "devices",
                     items: rows.filter { $0.bytes > 0 }.map { .init(value: $0.bytesPerSecond / 1000, style: $0.result.rawValue) },
                     styles: Self.resultStyles)
    }

    private var throughputChart: SVGBarChart {
        SVGBarChart(id: "chart-throughput", title: "Throughput per device (kB/s)", unit: "kB/s", bars: rows.map { row in
            .init(label: row.device, value: row.bytesPerSecond / 1000, valueText: ReportFormatting.throughput(row.bytesPerSecond),
                  style: row.result.rawValue,
                  tooltip: "\(row.device): \(row.bytes) bytes at \(ReportFormatting.throughput(row.bytesPerSecond))")
        })
    }

    private var causesChart: SVGBarChart {
        // The most frequent causes, the rest added up in one bar.
        let shown = byCause.count > 12 ? Array(byCause.prefix(11)) : byCause
        var bars: [SVGBarChart.Bar] = shown.map { cause in
            .init(label: cause.kind, value: Double(cause.attempts), valueText: String(cause.attempts), style: "cause",
                  tooltip: "\(cause.kind): \(cause.attempts) failed attempt\(cause.attempts == 1 ? "" : "s") on "
                      + "\(cause.devices) device\(cause.devices == 1 ? "" : "s")")
        }
        let rest = byCause.dropFirst(shown.count)
        if !rest.isEmpty {
            let attempts = rest.reduce(0) { $0 + $1.attempts }
            bars.append(.init(label: "\(rest.count) other causes", value: Double(attempts), valueText: String(attempts),
                              style: "cause", tooltip: rest.map { "\($0.kind): \($0.attempts)" }.joined(separator: ", ")))
        }
        return SVGBarChart(id: "chart-causes", title: "Failed attempts by cause", unit: "attempts", bars: bars)
    }

    /// The halts, resumes, quarantines and releases, when the ledger holds any.
    private var lineControlTable: String {
        guard !lineEvents.isEmpty else { return "" }
        let escape = MarkupEscaping.text
        var html = "<h2>Line controls</h2>\n<table id=\"line-controls\">\n<thead><tr><th>Time</th><th>Event</th>"
            + "<th>Tripping attempts</th></tr></thead>\n<tbody>\n"
        for event in lineEvents {
            html += "<tr class=\"\(event.kind.rawValue)\"><td>\(ReportFormatting.timestamp(event.at))</td>"
                + "<td>\(escape(Self.describe(event)))</td><td>\(event.attempts.map(escape).joined(separator: "<br>"))</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    private var deviceTable: String {
        let escape = MarkupEscaping.text
        var html = "<h2>Devices</h2>\n<table id=\"devices\">\n<thead><tr><th>Device</th><th>Serial</th><th>Result</th>"
            + "<th class=\"number\">Attempts</th><th class=\"number\">Seconds (all attempts)</th><th class=\"number\">Throughput</th>"
            + "<th>Station</th><th>Last error, or version seen</th></tr></thead>\n<tbody>\n"
        for row in rows {
            var error = row.lastErrorKind ?? ""
            if let message = row.lastErrorMessage { error += ": " + message }
            if row.result == .skipped { error = "runs " + (row.deviceVersion ?? "?") }
            let seconds = ReportFormatting.fixed(row.totalSeconds, digits: 2)
            let throughput = ReportFormatting.throughput(row.bytesPerSecond)
            html += "<tr class=\"\(row.result.rawValue)\"><td><code>\(escape(row.device))</code></td>"
            html += "<td>\(escape(row.serial ?? ""))</td><td class=\"result\">\(row.result.rawValue)</td>"
            html += "<td class=\"number\">\(row.attempts)</td><td class=\"number\">\(seconds)</td>"
            html += "<td class=\"number\">\(throughput)</td><td>\(escape(row.station))</td><td class=\"error\">\(escape(error))</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    private static let styleSheet = """

        body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 24px auto; max-width: 980px;
               color: #1d2433; padding: 0 16px; }
        h1 { font-size: 24px; margin-bottom: 4px; }
        h2 { font-size: 17px; margin-top: 28px; border-bottom: 1px solid #e2e6ee; padding-bottom: 4px; }
        .meta { color: #5b6475; font-size: 13px; }
        .cards { display: flex; flex-wrap: wrap; gap: 10px; margin: 16px 0; }
        .card { border: 1px solid #e2e6ee; border-radius: 8px; padding: 10px 16px; min-width: 96px; background: #f8f9fb; }
        .card .value { font-size: 22px; font-weight: 600; }
        .card .label { font-size: 12px; color: #5b6475; }
        .card.succeeded .value { color: #2e7d32; }
        .card.failed .value { color: #c62828; }
        .verdict { font-weight: 600; padding: 8px 12px; border-radius: 6px; }
        .verdict.ok { background: #e8f5e9; color: #1b5e20; }
        .verdict.bad { background: #ffebee; color: #b71c1c; }
        svg.chart { max-width: 100%; height: auto; display: block; }
        svg .grid { stroke: #e2e6ee; stroke-width: 1; }
        svg text { font-size: 11px; fill: #3a4150; font-family: ui-monospace, "DejaVu Sans Mono", monospace; }
        svg .axis { fill: #7a8394; }
        svg .empty { fill: #7a8394; font-style: italic; }
        .bar.succeeded rect, .swatch.succeeded { fill: #43a047; background: #43a047; }
        .bar.failed rect, .swatch.failed { fill: #e53935; background: #e53935; }
        .bar.cancelled rect, .swatch.cancelled { fill: #9e9e9e; background: #9e9e9e; }
        .bar.cause rect { fill: #fb8c00; }
        .bar.skipped rect, .swatch.skipped { fill: #1e88e5; background: #1e88e5; }
        svg rect.succeeded { fill: #43a047; } svg rect.failed { fill: #e53935; }
        svg rect.cancelled { fill: #9e9e9e; } svg rect.skipped { fill: #1e88e5; }
        tr.skipped td.result { color: #1565c0; }
        .legend { font-size: 12px; color: #5b6475; margin: 4px 0; }
        .swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin: 0 4px 0 12px; }
        .swatch:first-child { margin-left: 0; }
        table { border-collapse: collapse; width: 100%; font-size: 13px; }
        th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #eef0f4; white-space: nowrap; }
        td.error { white-space: normal; }
        th { background: #f3f5f8; }
        td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
        tr.failed td.result { color: #c62828; font-weight: 600; }
        tr.succeeded td.result { color: #2e7d32; }
        tr.cancelled td.result { color: #757575; }

        """
}
