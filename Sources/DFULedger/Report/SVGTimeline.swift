import Foundation

/// The stations' timeline as inline SVG: one lane per station, each attempt a bar from its start
/// to its end on a shared time axis (seconds from the first attempt), coloured by result. Attempts
/// that overlap on one station (its concurrency) are stacked in rows inside the lane. The chart's
/// height is bounded whatever the number of attempts or stations: lanes share a fixed height, and
/// past `maximumLanes` stations the rest share one lane.
struct SVGTimeline {
    /// The `id` of the `<svg>` element.
    var id: String
    var title: String
    var spans: [BatchReport.Span]
    /// Appended to the axis unit, e.g. " simulated".
    var clockNote: String

    static let width = 760.0
    /// The lanes' total height at most; each lane gets at most `maximumLaneHeight`.
    static let maximumPlotHeight = 480.0
    static let maximumLaneHeight = 64.0
    static let maximumLanes = 16
    private let labelWidth = 120.0
    private let right = 16.0
    private let top = 30.0
    private let bottom = 12.0

    /// The chart's height for this many stations (the lanes, the axis and the margins).
    static func height(stations: Int) -> Double {
        let lanes = Double(max(1, min(stations, maximumLanes)))
        return 30 + min(maximumLaneHeight, maximumPlotHeight / lanes) * lanes + 12
    }

    func render() -> String {
        let escape = MarkupEscaping.text
        let attribute = MarkupEscaping.attribute
        let number = SVGBarChart.number
        let lanes = Self.lanes(spans)
        let laneHeight = min(Self.maximumLaneHeight, Self.maximumPlotHeight / Double(max(1, lanes.count)))
        let height = Self.height(stations: lanes.count)
        let origin = spans.map(\.startedAt).min() ?? Date(timeIntervalSince1970: 0)
        let end = spans.map(\.endedAt).max() ?? origin
        let maximum = SVGBarChart.snugMaximum(end.timeIntervalSince(origin))
        let plotWidth = Self.width - labelWidth - right
        var svg = "<svg id=\"\(attribute(id))\" class=\"chart timeline\" xmlns=\"http://www.w3.org/2000/svg\" "
            + "viewBox=\"0 0 \(Int(Self.width)) \(Int(height.rounded(.up)))\" width=\"\(Int(Self.width))\" "
            + "height=\"\(Int(height.rounded(.up)))\" role=\"img\" aria-label=\"\(attribute(title))\">\n<title>\(escape(title))</title>\n"
        for step in 0...4 {
            let x = labelWidth + plotWidth * Double(step) / 4
            svg += "<line class=\"grid\" x1=\"\(number(x))\" y1=\"\(number(top - 6))\" x2=\"\(number(x))\" y2=\"\(number(height - bottom))\"/>"
            svg += "<text class=\"axis\" x=\"\(number(x))\" y=\"\(number(top - 12))\" text-anchor=\"\(step == 4 ? "end" : "middle")\">+"
                + "\(escape(SVGBarChart.axisLabel(maximum * Double(step) / 4)))\(step == 4 ? " s" + escape(clockNote) : "")</text>\n"
        }
        if spans.isEmpty {
            svg += "<text class=\"empty\" x=\"\(number(labelWidth + 8))\" y=\"\(number(top + 14))\">no data</text>\n"
        }
        for (index, lane) in lanes.enumerated() {
            let laneTop = top + Double(index) * laneHeight
            let rowHeight = (laneHeight - 4) / Double(max(1, lane.rows))
            svg += "<g class=\"lane\"><text class=\"label\" x=\"\(number(labelWidth - 8))\" y=\"\(number(laneTop + laneHeight / 2 + 4))\" "
                + "text-anchor=\"end\">\(escape(lane.name))</text>"
            svg += "<line class=\"grid\" x1=\"\(number(labelWidth))\" y1=\"\(number(laneTop + laneHeight))\" "
                + "x2=\"\(number(Self.width - right))\" y2=\"\(number(laneTop + laneHeight))\"/>\n"
            for (span, row) in lane.spans {
                let x = labelWidth + span.startedAt.timeIntervalSince(origin) / maximum * plotWidth
                let width = max(span.endedAt.timeIntervalSince(span.startedAt) / maximum * plotWidth, 0.5)
                let tooltip = "\(span.device) on \(span.station): attempt \(span.attemptNumber) \(span.result.rawValue), "
                    + "\(ReportFormatting.fixed(span.seconds, digits: 2)) s from +"
                    + "\(ReportFormatting.fixed(span.startedAt.timeIntervalSince(origin), digits: 1)) s"
                svg += "<rect class=\"span \(span.result.rawValue)\" x=\"\(number(x))\" y=\"\(number(laneTop + 2 + Double(row) * rowHeight))\" "
                    + "width=\"\(number(width))\" height=\"\(number(max(rowHeight - (rowHeight > 3 ? 1 : 0), 0.5)))\">"
                    + "<title>\(escape(tooltip))</title></rect>\n"
            }
            svg += "</g>\n"
        }
        return svg + "</svg>"
    }

    /// A station's lane: its attempts, each with the row it is drawn in.
    struct Lane {
        var name: String
        var spans: [(BatchReport.Span, Int)]
        var rows: Int
    }

    /// One lane per station (by name), the last one shared when there are more than
    /// `maximumLanes`; inside a lane each attempt goes to the first row free at its start.
    static func lanes(_ spans: [BatchReport.Span]) -> [Lane] {
        let stations = Set(spans.map(\.station)).sorted()
        let named = stations.count > maximumLanes ? Array(stations.prefix(maximumLanes - 1)) : stations
        var byLane: [String: [BatchReport.Span]] = [:]
        let others = "\(stations.count - named.count) other stations"
        for span in spans {
            byLane[named.contains(span.station) ? span.station : others, default: []].append(span)
        }
        let order = named + (stations.count > named.count ? [others] : [])
        return order.map { name in
            var rowEnds: [Date] = []
            var placed: [(BatchReport.Span, Int)] = []
            for span in (byLane[name] ?? []).sorted(by: { ($0.startedAt, $0.device) < ($1.startedAt, $1.device) }) {
                let row = rowEnds.firstIndex { $0 <= span.startedAt } ?? rowEnds.count
                if row == rowEnds.count { rowEnds.append(span.endedAt) } else { rowEnds[row] = span.endedAt }
                placed.append((span, row))
            }
            return Lane(name: name, spans: placed, rows: max(1, rowEnds.count))
        }
    }
}
