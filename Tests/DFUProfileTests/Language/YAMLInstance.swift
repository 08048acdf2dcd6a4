import DFUBytes
import DFUProfile

/// A parsed profile as the JSON instance an editor's YAML language server validates: plain
/// scalars typed by the YAML 1.2 core schema (`42`, `0x2A` and `0o17` integers, `true`/`false`,
/// `null`/`~`/empty, floats), quoted and block scalars as strings, mapping keys as their text.
enum YAMLInstance {
    static func json(_ node: ProfileNode) -> JSONValue {
        switch node.content {
        case let .mapping(entries):
            return .object(entries.map { ($0.key.scalar ?? "", json($0.value)) })
        case let .sequence(items):
            return .array(items.map(json))
        case let .scalar(text, style):
            return style.isPlain ? plain(text) : .string(text)
        }
    }

    private static func plain(_ text: String) -> JSONValue {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default: break
        }
        if let value = integer(text) { return value }
        if JSONSchemaSubsetValidator.matches(text, "^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$"),
           let number = Double(text) {
            return .number(number)
        }
        return .string(text)
    }

    private static func integer(_ text: String) -> JSONValue? {
        let (digits, radix): (Substring, Int)
        if text.hasPrefix("0x") {
            (digits, radix) = (text.dropFirst(2), 16)
        } else if text.hasPrefix("0o") {
            (digits, radix) = (text.dropFirst(2), 8)
        } else if JSONSchemaSubsetValidator.matches(text, "^[-+]?[0-9]+$") {
            (digits, radix) = (Substring(text), 10)
        } else {
            return nil
        }
        guard let value = Int64(digits, radix: radix) else {
            return Double(text).map(JSONValue.number)
        }
        return .integer(value)
    }
}
