import DFUProfile

/// `COMMAND.FIELD=EXPRESSION` (`dfukit profile trace --answer`): what the generic device puts
/// in a field of a command's response instead of its default, for what only a real device
/// knows. The expression may use `request` (the fields of the request being answered; an
/// anonymous CBOR body is `request.cbor`) and the fields of the last request of each command
/// the device received (`start.crc32`). `FIELD` may go into a CBOR field (`upload.body.off`).
/// When the expression cannot be evaluated yet (a command not received so far), the field keeps
/// its default.
public struct AnswerRule: Sendable {
    /// The command whose response it fills in.
    public var command: String
    /// The response field, then keys inside a CBOR field.
    public var path: [String]
    /// What the field gets, evaluated when the request is answered.
    public var expression: Expression

    /// Parses `COMMAND.FIELD[.KEY...]=EXPRESSION`; the error says what is wrong.
    public static func parse(_ text: String) -> Result<AnswerRule, AnswerRuleError> {
        guard let equals = text.firstIndex(of: "=") else {
            return .failure(AnswerRuleError("--answer takes COMMAND.FIELD=EXPRESSION, not '\(text)'"))
        }
        let target = text[..<equals].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard target.count >= 2, target.allSatisfy({ !$0.isEmpty }) else {
            return .failure(AnswerRuleError("--answer '\(text)': name the field as COMMAND.FIELD"))
        }
        let source = String(text[text.index(after: equals)...])
        let origin = SourceLocation(file: "--answer", line: 1, column: text.distance(from: text.startIndex, to: equals) + 2)
        do {
            let expression = try ExpressionParser.parse(source, at: origin)
            return .success(AnswerRule(command: target[0], path: Array(target.dropFirst()), expression: expression))
        } catch {
            return .failure(AnswerRuleError("--answer '\(text)': \(error.message)"))
        }
    }

    /// Why the rule does not fit `profile`, or nil.
    public func problem(in profile: Profile) -> String? {
        guard let command = profile.commands[command] else {
            return "--answer: profile '\(profile.name)' has no command '\(command)'"
        }
        guard let response = command.response else {
            return "--answer: command '\(self.command)' has no response"
        }
        let names = response.message.fields.compactMap(\.name)
        guard let field = response.message.fields.first(where: { $0.name == path[0] }) else {
            return "--answer: the response of '\(self.command)' has no field '\(path[0])' (it has: "
                + names.joined(separator: ", ") + ")"
        }
        if path.count > 1, field.type != .cbor {
            return "--answer: '\(path[0])' of '\(self.command)' is not a cbor field: it has no keys"
        }
        return nil
    }
}

/// Why an `--answer` rule cannot be used: a malformed rule, or a command or field the profile
/// does not have.
public struct AnswerRuleError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, for the user.
    public var message: String
    /// An error that says `message`.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
