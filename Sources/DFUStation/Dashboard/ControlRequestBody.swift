import Foundation

/// The body of a line control, `{"operator": "NAME", "reason": "TEXT"}`: who does it (required,
/// not blank) and why (optional; `null` or blank is no reason).
public struct ControlRequestBody: Sendable, Equatable {
    /// Who resumes or releases, as the ledger records it.
    public var operatorName: String
    /// Why, or nil.
    public var reason: String?

    /// Why a body cannot be used: the 400 answer's message.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong and what to send instead.
        public var description: String
    }

    /// The longest operator name or reason accepted, in characters.
    public static let maximumLength = 1_000

    /// Reads `data`; throws `Problem` when it is not such a JSON object.
    public init(json data: Data) throws(Problem) {
        let example = "send {\"operator\": \"NAME\", \"reason\": \"TEXT\"}"
        guard !data.isEmpty else { throw Problem(description: "the request has no body: \(example)") }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw Problem(description: "the body is not JSON: \(example)")
        }
        guard let object = parsed as? [String: Any] else { throw Problem(description: "the body is not a JSON object: \(example)") }
        guard let name = object["operator"] as? String,
              case let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else {
            throw Problem(description: "the body has no operator: say who you are, \(example)")
        }
        operatorName = trimmed
        switch object["reason"] {
        case nil, is NSNull: reason = nil
        case let text as String:
            let trimmedReason = text.trimmingCharacters(in: .whitespacesAndNewlines)
            reason = trimmedReason.isEmpty ? nil : trimmedReason
        default: throw Problem(description: "the reason is not a string: \(example)")
        }
        guard operatorName.count <= Self.maximumLength, (reason?.count ?? 0) <= Self.maximumLength else {
            throw Problem(description: "the operator or the reason is longer than \(Self.maximumLength) characters")
        }
    }
}
