/// Escaping for text placed into XML (JUnit) and HTML (the HTML report, SVG labels).
enum MarkupEscaping {
    /// Text for an XML or HTML element or a double-quoted attribute: `& < > " '` become entities;
    /// characters XML 1.0 forbids (control characters other than tab, newline and carriage
    /// return, unpaired surrogates cannot occur in a Swift String, U+FFFE, U+FFFF) become U+FFFD.
    /// With `attribute`, tab, newline and carriage return become character references so that
    /// parsers keep them.
    static func escape(_ text: String, attribute: Bool = false) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n", "\r":
                if attribute { result += "&#\(scalar.value);" } else { result.unicodeScalars.append(scalar) }
            default:
                let value = scalar.value
                if value < 0x20 || value == 0xFFFE || value == 0xFFFF {
                    result.unicodeScalars.append("\u{FFFD}")
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// `escape(text)`: for element content.
    static func text(_ text: String) -> String { escape(text, attribute: false) }

    /// `escape(text, attribute: true)`.
    static func attribute(_ text: String) -> String { escape(text, attribute: true) }
}
