import DFUKit
import Foundation

/// The one way the command line writes JSON: a value built from dictionaries, arrays,
/// strings, numbers, booleans and `NSNull` is turned into the library's `JSONValue` and
/// printed by it (keys sorted), so `--json` outputs and the library's documents (manifests,
/// inspections, reports) come from one emitter.
enum JSONOutput {
    /// `object` on one line, keys sorted.
    static func line(_ object: Any) -> String {
        value(object).sortingKeys.compactText
    }

    /// `object` pretty-printed (two-space indentation), keys sorted, without the final newline.
    static func pretty(_ object: Any) -> String {
        String(value(object).sortingKeys.prettyText.dropLast())
    }

    /// The JSON value of a Foundation-style object. Booleans, integers and doubles are told
    /// apart by their Swift type (never by NSNumber's guesses); anything else is its description.
    static func value(_ object: Any) -> JSONValue {
        switch object {
        case is NSNull: return .null
        case let optional as OptionalProtocol: return optional.wrapped.map(value) ?? .null
        case let bool as Bool where type(of: object) == Bool.self: return .bool(bool)
        case let integer as Int: return .integer(Int64(integer))
        case let integer as Int64: return .integer(integer)
        case let integer as UInt64: return integer <= UInt64(Int64.max) ? .integer(Int64(integer)) : .unsigned(integer)
        case let integer as UInt32: return .integer(Int64(integer))
        case let integer as Int32: return .integer(Int64(integer))
        case let integer as UInt16: return .integer(Int64(integer))
        case let integer as UInt8: return .integer(Int64(integer))
        case let number as Double: return .number(number)
        case let number as Float: return .number(Double(number))
        case let text as String: return .string(text)
        case let text as Substring: return .string(String(text))
        case let dictionary as [String: Any]: return .object(dictionary.map { ($0.key, value($0.value)) })
        case let array as [Any]: return .array(array.map(value))
        case let json as JSONValue: return json
        default: return .string("\(object)")
        }
    }
}

/// Lets `value` see through an optional stored in `Any`.
private protocol OptionalProtocol {
    var wrapped: Any? { get }
}

extension Optional: OptionalProtocol {
    fileprivate var wrapped: Any? { self.map { $0 as Any } }
}
