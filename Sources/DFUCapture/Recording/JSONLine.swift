import DFUBytes
/// One JSON object written key by key in the order given, so that a recording's lines read the
/// same every time (`format` first in the header, `t` and `event` first in an event).
struct JSONLine {
    private var text = "{"

    /// A key whose value is already JSON text (a number, an array, an object).
    mutating func raw(_ key: String, _ json: String) {
        if text.count > 1 { text += "," }
        text += JSONLine.quoted(key) + ":" + json
    }

    mutating func string(_ key: String, _ value: String) { raw(key, JSONLine.quoted(value)) }
    mutating func string(_ key: String, _ value: String?) { if let value { string(key, value) } }
    mutating func int(_ key: String, _ value: Int) { raw(key, String(value)) }
    mutating func int(_ key: String, _ value: Int?) { if let value { int(key, value) } }
    mutating func bool(_ key: String, _ value: Bool) { raw(key, value ? "true" : "false") }

    /// The object's text, without a line break.
    var json: String { text + "}" }

    /// `value` as a JSON string: quotes, backslashes and control characters escaped.
    static func quoted(_ value: String) -> String {
        JSONValue.quoted(value)
    }

    /// A JSON array of already-encoded items.
    static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }

    /// Seconds with microsecond precision, always six decimals: "0.000000", "12.345678".
    static func seconds(_ time: Duration) -> String {
        let (seconds, attoseconds) = time.components
        var micros = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        let sign = micros < 0 ? "-" : ""
        micros = abs(micros)
        let fraction = String(micros % 1_000_000)
        return sign + String(micros / 1_000_000) + "." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}
