/// A JSON value with object members in a fixed order, written with two-space indentation (the
/// same layout as the other `--json` outputs of dfukit).
enum ReportJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    /// Written with at most three decimals.
    case number(Double)
    case string(String)
    case array([ReportJSON])
    case object([(String, ReportJSON)])

    static func == (lhs: ReportJSON, rhs: ReportJSON) -> Bool { lhs.text == rhs.text }

    static func optional(_ text: String?) -> ReportJSON { text.map(ReportJSON.string) ?? .null }

    /// The document, ending with a newline.
    var text: String {
        var output = ""
        write(to: &output, indent: 0)
        return output + "\n"
    }

    private func write(to output: inout String, indent: Int) {
        let padding = String(repeating: "  ", count: indent + 1)
        let closing = String(repeating: "  ", count: indent)
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .integer(let value): output += String(value)
        case .number(let value): output += value.isFinite ? ReportFormatting.decimal(value) : "null"
        case .string(let value): output += Self.quoted(value)
        case .array(let elements):
            guard !elements.isEmpty else { output += "[]"; return }
            output += "[\n"
            for (offset, element) in elements.enumerated() {
                output += padding
                element.write(to: &output, indent: indent + 1)
                output += offset == elements.count - 1 ? "\n" : ",\n"
            }
            output += closing + "]"
        case .object(let members):
            guard !members.isEmpty else { output += "{}"; return }
            output += "{\n"
            for (offset, member) in members.enumerated() {
                output += padding + Self.quoted(member.0) + ": "
                member.1.write(to: &output, indent: indent + 1)
                output += offset == members.count - 1 ? "\n" : ",\n"
            }
            output += closing + "}"
        }
    }

    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
