import DFUBytes
import Foundation

/// Validates a JSON instance against the subset of JSON Schema (draft 2020-12) that
/// `ProfileJSONSchema` emits: `$ref` (to `#/$defs/NAME`), `type`, `enum`, `const`, `pattern`,
/// `minimum`, `maximum`, `properties`, `required`, `additionalProperties`, `propertyNames`,
/// `items`, `anyOf`, `oneOf`; `$schema`, `$defs`, `title` and `description` are annotations. Any
/// other keyword is reported as unsupported, so the schema cannot grow past what is checked.
struct JSONSchemaSubsetValidator {
    struct Failure: CustomStringConvertible {
        /// Where in the instance, e.g. `/commands/start/timeout`.
        var path: String
        var message: String
        var description: String { "\(path.isEmpty ? "/" : path): \(message)" }
    }

    static let annotations: Set<String> = ["$schema", "$defs", "title", "description"]
    static let assertions: Set<String> = [
        "$ref", "type", "enum", "const", "pattern", "minimum", "maximum", "properties", "required",
        "additionalProperties", "propertyNames", "items", "anyOf", "oneOf",
    ]

    let root: JSONValue

    func validate(_ instance: JSONValue) -> [Failure] {
        validate(instance, against: root, at: "")
    }

    /// Every keyword of every schema in the document that is neither checked nor an annotation.
    func unsupportedKeywords() -> Set<String> {
        var found = Set<String>()
        func visit(_ schema: JSONValue, definitionsLevel: Bool = false) {
            guard case let .object(members) = schema else { return }
            for (key, value) in members {
                if definitionsLevel {
                    visit(value)
                    continue
                }
                if !Self.annotations.contains(key), !Self.assertions.contains(key) { found.insert(key) }
                switch key {
                case "$defs", "properties": visit(value, definitionsLevel: true)
                case "items", "additionalProperties", "propertyNames": visit(value)
                case "anyOf", "oneOf":
                    if case let .array(items) = value { items.forEach { visit($0) } }
                default: break
                }
            }
        }
        visit(root)
        return found
    }

    private func validate(_ instance: JSONValue, against schema: JSONValue, at path: String) -> [Failure] {
        if case let .bool(accepts) = schema {
            return accepts ? [] : [Failure(path: path, message: "no value is allowed here")]
        }
        guard case let .object(keywords) = schema else { return [Failure(path: path, message: "bad schema")] }
        var failures: [Failure] = []
        for (keyword, value) in keywords {
            failures += check(keyword, value, schema: schema, instance: instance, at: path)
        }
        return failures
    }

    private func check(_ keyword: String, _ value: JSONValue, schema: JSONValue, instance: JSONValue,
                       at path: String) -> [Failure] {
        func fail(_ message: String) -> [Failure] { [Failure(path: path, message: message)] }
        switch keyword {
        case "$ref":
            guard case let .string(reference) = value, reference.hasPrefix("#/$defs/"),
                  let target = root["$defs"]?[String(reference.dropFirst("#/$defs/".count))] else {
                return fail("unresolvable $ref \(value)")
            }
            return validate(instance, against: target, at: path)
        case "type":
            let names: [String]
            switch value {
            case let .string(name): names = [name]
            case let .array(items): names = items.compactMap { if case let .string(name) = $0 { name } else { nil } }
            default: return fail("bad type keyword")
            }
            return names.contains(where: { Self.has(instance, type: $0) })
                ? [] : fail("\(instance.typeName) is not of type \(names.joined(separator: " or "))")
        case "enum":
            guard case let .array(items) = value else { return fail("bad enum keyword") }
            return items.contains(where: { Self.equal($0, instance) }) ? [] : fail("\(Self.text(instance)) is not one of \(items.map(Self.text))")
        case "const":
            return Self.equal(value, instance) ? [] : fail("\(Self.text(instance)) is not \(Self.text(value))")
        case "pattern":
            guard case let .string(text) = instance, case let .string(pattern) = value else { return [] }
            return Self.matches(text, pattern) ? [] : fail("'\(text)' does not match \(pattern)")
        case "minimum", "maximum":
            guard let number = Self.number(instance), let bound = Self.number(value) else { return [] }
            let inside = keyword == "minimum" ? number >= bound : number <= bound
            return inside ? [] : fail("\(Self.text(instance)) is out of range (\(keyword) \(Self.text(value)))")
        case "required":
            guard case let .object(members) = instance, case let .array(names) = value else { return [] }
            return names.compactMap { name -> Failure? in
                guard case let .string(key) = name, !members.contains(where: { $0.key == key }) else { return nil }
                return Failure(path: path, message: "missing required key '\(key)'")
            }
        case "properties", "additionalProperties":
            return checkProperties(keyword, value, schema: schema, instance: instance, at: path)
        case "propertyNames":
            guard case let .object(members) = instance else { return [] }
            return members.flatMap { validate(.string($0.key), against: value, at: path + "/" + $0.key) }
        case "items":
            guard case let .array(items) = instance else { return [] }
            return items.enumerated().flatMap { validate($0.element, against: value, at: path + "/\($0.offset)") }
        case "anyOf", "oneOf":
            guard case let .array(alternatives) = value else { return fail("bad \(keyword) keyword") }
            let results = alternatives.map { validate(instance, against: $0, at: path) }
            let passing = results.filter(\.isEmpty).count
            if keyword == "oneOf", passing > 1 { return fail("matches \(passing) alternatives of oneOf, not one") }
            guard passing == 0 else { return [] }
            // The alternative that came closest explains best what is wrong.
            return results.min { $0.count < $1.count } ?? fail("matches no alternative")
        default:
            return Self.annotations.contains(keyword) ? [] : fail("unsupported keyword \(keyword)")
        }
    }

    private func checkProperties(_ keyword: String, _ value: JSONValue, schema: JSONValue, instance: JSONValue,
                                 at path: String) -> [Failure] {
        guard case let .object(members) = instance else { return [] }
        let declared: [(key: String, value: JSONValue)]
        if case let .object(properties)? = schema["properties"] { declared = properties } else { declared = [] }
        var failures: [Failure] = []
        for member in members {
            let memberPath = path + "/" + member.key
            if let property = declared.first(where: { $0.key == member.key }) {
                if keyword == "properties" { failures += validate(member.value, against: property.value, at: memberPath) }
            } else if keyword == "additionalProperties" {
                if case .bool(false) = value {
                    let known = declared.map(\.key).joined(separator: ", ")
                    failures.append(Failure(path: memberPath, message: "unknown key '\(member.key)' (known: \(known))"))
                } else {
                    failures += validate(member.value, against: value, at: memberPath)
                }
            }
        }
        return failures
    }

    static func has(_ instance: JSONValue, type: String) -> Bool {
        switch (instance, type) {
        case (.null, "null"), (.bool, "boolean"), (.string, "string"), (.array, "array"), (.object, "object"): return true
        case (.integer, "integer"), (.integer, "number"), (.number, "number"): return true
        case let (.number(value), "integer"): return value.rounded() == value
        default: return false
        }
    }

    static func equal(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        text(lhs) == text(rhs)
    }

    static func text(_ value: JSONValue) -> String {
        var compact = value.prettyText
        compact.removeAll { $0 == "\n" }
        return compact
    }

    static func number(_ value: JSONValue) -> Double? {
        switch value {
        case let .integer(number): return Double(number)
        case let .number(number): return number
        default: return nil
        }
    }

    static func matches(_ text: String, _ pattern: String) -> Bool {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return false }
        return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
