/// A histogram as inline SVG: values counted into `binCount` equal bins from 0 to a round
/// maximum, each column stacked by style (`succeeded`, `failed`, ...), a count axis on the left,
/// a `<title>` per column for tooltips. Its size is fixed whatever the number of values.
struct SVGHistogram {
    struct Item {
        var value: Double
        /// A CSS class from the report's style sheet.
        var style: String
    }

    /// The `id` of the `<svg>` element.
    var id: String
    var title: String
    /// The value unit, e.g. `s`.
    var unit: String
    /// What is counted, plural (`devices`).
    var counted: String
    var items: [Item]
    /// Stack order, bottom first.
    var styles: [String]
    var binCount = 20

    static let width = 760.0
    static let height = 280.0
    private let left = 56.0
    private let right = 16.0
    private let top = 16.0
    private let bottom = 40.0

    func render() -> String {
        let escape = MarkupEscaping.text
        let attribute = MarkupEscaping.attribute
        let number = SVGBarChart.number
        let maximum = SVGBarChart.snugMaximum(items.map(\.value).max() ?? 0)
        let binWidth = maximum / Double(binCount)
        var counts = Array(repeating: [String: Int](), count: binCount)
        for item in items {
            let bin = min(binCount - 1, max(0, Int(item.value / binWidth)))
            counts[bin][item.style, default: 0] += 1
        }
        let tallest = counts.map { $0.values.reduce(0, +) }.max() ?? 0
        let countMaximum = SVGBarChart.niceMaximum(Double(tallest))
        let plotWidth = Self.width - left - right
        let plotHeight = Self.height - top - bottom
        var svg = "<svg id=\"\(attribute(id))\" class=\"chart histogram\" xmlns=\"http://www.w3.org/2000/svg\" "
            + "viewBox=\"0 0 \(Int(Self.width)) \(Int(Self.height))\" width=\"\(Int(Self.width))\" height=\"\(Int(Self.height))\" "
            + "role=\"img\" aria-label=\"\(attribute(title))\">\n<title>\(escape(title))</title>\n"
        for step in 0...4 {
            let y = top + plotHeight * (1 - Double(step) / 4)
            svg += "<line class=\"grid\" x1=\"\(number(left))\" y1=\"\(number(y))\" x2=\"\(number(Self.width - right))\" y2=\"\(number(y))\"/>"
            svg += "<text class=\"axis\" x=\"\(number(left - 6))\" y=\"\(number(y + 4))\" text-anchor=\"end\">"
                + "\(SVGBarChart.axisLabel(countMaximum * Double(step) / 4))</text>\n"
            let x = left + plotWidth * Double(step) / 4
            svg += "<text class=\"axis\" x=\"\(number(x))\" y=\"\(number(Self.height - bottom + 16))\" text-anchor=\"\(step == 4 ? "end" : "middle")\">"
                + "\(escape(SVGBarChart.axisLabel(maximum * Double(step) / 4)))\(step == 4 ? " " + escape(unit) : "")</text>\n"
        }
        svg += "<text class=\"axis\" x=\"\(number(left))\" y=\"\(number(Self.height - 6))\">\(escape(counted)) per "
            + "\(escape(SVGBarChart.axisLabel(binWidth))) \(escape(unit)) bin</text>\n"
        if items.isEmpty {
            svg += "<text class=\"empty\" x=\"\(number(left + 8))\" y=\"\(number(top + 20))\">no data</text>\n"
        }
        let columnWidth = plotWidth / Double(binCount)
        for (bin, count) in counts.enumerated() where !count.isEmpty {
            let total = count.values.reduce(0, +)
            let from = binWidth * Double(bin)
            let parts = styles.compactMap { style in count[style].map { "\($0) \(style)" } }.joined(separator: ", ")
            let range = SVGBarChart.axisLabel(from) + "–" + SVGBarChart.axisLabel(from + binWidth)
            let tooltip = "\(range) \(unit): \(total) \(counted) (\(parts))"
            svg += "<g class=\"column\"><title>\(escape(tooltip))</title>"
            var base = top + plotHeight
            for style in styles {
                guard let value = count[style] else { continue }
                let height = Double(value) / countMaximum * plotHeight
                base -= height
                svg += "<rect class=\"\(attribute(style))\" x=\"\(number(left + columnWidth * Double(bin) + 1))\" "
                    + "y=\"\(number(base))\" width=\"\(number(max(columnWidth - 2, 1)))\" height=\"\(number(max(height, 0.5)))\"/>"
            }
            svg += "</g>\n"
        }
        return svg + "</svg>"
    }
}
