import DFUBytes
import DFUProfile

/// Tells whether a complete message is the answer a request waits for: decoded against the
/// response layout (constant fields must hold their values), then the response's `match`
/// conditions (which may compare with the request's fields, e.g. SMP's sequence number).
/// Shared by `CommandExchange` and `WindowedTransfer`.
enum ResponseMatcher {
    enum Verdict {
        case matched([String: Value])
        /// Not this request's answer; why, for the timeout error.
        case mismatched(String)
    }

    static func match(_ message: [UInt8], response: ResponseSpec, scope: Scope) throws(EvaluationError) -> Verdict {
        switch try MessageDecoder.decode(message, as: response.message, in: scope, status: response.status) {
        case let .mismatched(reason):
            return .mismatched("\(message.prefix(16).hexString) (\(reason))")
        case let .matched(fields):
            var scope = scope
            scope["response"] = .record(fields)
            for condition in response.match where !(try ExpressionEvaluator.condition(condition, in: scope)) {
                return .mismatched("\(message.prefix(16).hexString) (fails match '\(condition.text)')")
            }
            return .matched(fields)
        }
    }
}

/// Messages a machine ignored, the first few, for the timeout error.
struct IgnoredMessages: Equatable {
    private(set) var notes: [String] = []

    mutating func remember(_ note: String) {
        if notes.count < 5 { notes.append(note) }
    }
}
