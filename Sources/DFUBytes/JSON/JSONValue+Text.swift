extension JSONValue {
    /// Pretty-printed JSON, two-space indentation, members in their stored order, ending with a newline.
    public var prettyText: String {
        var output = ""
        write(to: &output, indent: 0)
        output += "\n"
        return output
    }

    private func write(to output: inout String, indent: Int) {
        let padding = String(repeating: "  ", count: indent + 1)
        let closingPadding = String(repeating: "  ", count: indent)
        switch self {
        case .null: output += "null"
        case let .bool(value): output += value ? "true" : "false"
        case let .integer(value): output += String(value)
        case let .unsigned(value): output += String(value)
        case let .number(value): output += value.isFinite ? "\(value)" : "null"
        case let .string(value): output += Self.quoted(value)
        case let .array(elements):
            if elements.isEmpty { output += "[]"; return }
            output += "[\n"
            for (offset, element) in elements.enumerated() {
                output += padding
                element.write(to: &output, indent: indent + 1)
                output += offset == elements.count - 1 ? "\n" : ",\n"
            }
            output += closingPadding + "]"
        case let .object(members):
            if members.isEmpty { output += "{}"; return }
            output += "{\n"
            for (offset, member) in members.enumerated() {
                output += padding + Self.quoted(member.key) + ": "
                member.value.write(to: &output, indent: indent + 1)
                output += offset == members.count - 1 ? "\n" : ",\n"
            }
            output += closingPadding + "}"
        }
    }

    package static func quoted(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                // U+2028 and U+2029 are legal in JSON strings but end a line in older JavaScript.
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029 {
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
