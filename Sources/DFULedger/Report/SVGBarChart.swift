/// A horizontal bar chart as inline SVG: one labelled bar per item, a value axis with gridlines
/// on top, a `<title>` on every bar for tooltips. Pure text, no scripts or external resources.
/// At most `maximumBars` bars are drawn (the report draws histograms past that), so its height
/// stays under about 1,000 px.
struct SVGBarChart {
    struct Bar {
        var label: String
        var value: Double
        /// Printed after the bar, e.g. `12.4 s`.
        var valueText: String
        /// A CSS class from the report's style sheet: `succeeded`, `failed`, `cancelled`, `cause`.
        var style: String
        /// Tooltip text.
        var tooltip: String
    }

    /// The `id` of the `<svg>` element (the Chromium check looks for it).
    var id: String
    var title: String
    /// The axis unit, e.g. `s` or `kB/s`.
    var unit: String
    var bars: [Bar]

    /// The most bars drawn; further ones are left out, and a note says how many.
    static let maximumBars = 40
    private let width = 760.0
    private let labelWidth = 170.0
    private let valueWidth = 90.0
    private let top = 34.0

    func render() -> String {
        let escape = MarkupEscaping.text
        let attribute = MarkupEscaping.attribute
        let omitted = max(0, bars.count - Self.maximumBars)
        let bars = Array(self.bars.prefix(Self.maximumBars))
        let barHeight = 18.0
        let gap = 6.0
        let showLabels = true
        let plotWidth = width - labelWidth - valueWidth
        let height = top + Double(max(bars.count, 1) + (omitted > 0 ? 1 : 0)) * (barHeight + gap) + 10
        let maximum = Self.niceMaximum(bars.map(\.value).max() ?? 0)
        var svg = "<svg id=\"\(attribute(id))\" class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
            + "viewBox=\"0 0 \(Int(width)) \(Int(height.rounded(.up)))\" width=\"\(Int(width))\" "
            + "height=\"\(Int(height.rounded(.up)))\" role=\"img\" aria-label=\"\(attribute(title))\">\n"
        svg += "<title>\(escape(title))</title>\n"
        // Axis: five gridlines from 0 to the rounded maximum, labelled on top.
        for step in 0...4 {
            let value = maximum * Double(step) / 4
            let x = labelWidth + plotWidth * Double(step) / 4
            svg += "<line class=\"grid\" x1=\"\(Self.number(x))\" y1=\"\(Self.number(top - 6))\" x2=\"\(Self.number(x))\" "
                + "y2=\"\(Self.number(height - 8))\"/>"
            svg += "<text class=\"axis\" x=\"\(Self.number(x))\" y=\"\(Self.number(top - 12))\" text-anchor=\"middle\">"
                + "\(escape(Self.axisLabel(value)))\(step == 4 ? " " + escape(unit) : "")</text>\n"
        }
        if bars.isEmpty {
            svg += "<text class=\"empty\" x=\"\(Self.number(labelWidth + 8))\" y=\"\(Self.number(top + 14))\">no data</text>\n"
        }
        if omitted > 0 {
            svg += "<text class=\"empty\" x=\"\(Self.number(labelWidth + 8))\" "
                + "y=\"\(Self.number(top + Double(bars.count) * (barHeight + gap) + 13))\">\(omitted) more not shown</text>\n"
        }
        for (index, bar) in bars.enumerated() {
            let y = top + Double(index) * (barHeight + gap)
            let length = maximum > 0 ? max(bar.value, 0) / maximum * plotWidth : 0
            svg += "<g class=\"bar \(attribute(bar.style))\"><title>\(escape(bar.tooltip))</title>"
            if showLabels {
                svg += "<text class=\"label\" x=\"\(Self.number(labelWidth - 8))\" y=\"\(Self.number(y + barHeight * 0.75))\" "
                    + "text-anchor=\"end\">\(escape(bar.label))</text>"
            }
            svg += "<rect x=\"\(Self.number(labelWidth))\" y=\"\(Self.number(y))\" width=\"\(Self.number(max(length, 1)))\" "
                + "height=\"\(Self.number(barHeight))\" rx=\"2\"/>"
            if showLabels {
                svg += "<text class=\"value\" x=\"\(Self.number(labelWidth + max(length, 1) + 6))\" "
                    + "y=\"\(Self.number(y + barHeight * 0.75))\">\(escape(bar.valueText))</text>"
            }
            svg += "</g>\n"
        }
        return svg + "</svg>"
    }

    /// The smallest 1, 2 or 5 times a power of ten at or above `value` (1 for 0).
    static func niceMaximum(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        var magnitude = 1.0
        while magnitude * 10 <= value { magnitude *= 10 }
        while magnitude > value { magnitude /= 10 }
        for factor in [1.0, 2, 5, 10] where factor * magnitude >= value { return factor * magnitude }
        return 10 * magnitude
    }

    /// A round maximum close above `value` (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power
    /// of ten), for axes where `niceMaximum` would leave up to half the chart empty.
    static func snugMaximum(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        var magnitude = 1.0
        while magnitude * 10 <= value { magnitude *= 10 }
        while magnitude > value { magnitude /= 10 }
        for factor in [1.0, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10] where factor * magnitude >= value { return factor * magnitude }
        return 10 * magnitude
    }

    static func axisLabel(_ value: Double) -> String {
        value == value.rounded() ? ReportFormatting.fixed(value, digits: 0)
            : ReportFormatting.decimal(value, digits: 2)
    }

    /// Coordinates with at most one decimal.
    static func number(_ value: Double) -> String {
        ReportFormatting.decimal(value, digits: 1)
    }
}
