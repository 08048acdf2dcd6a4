import DFUBytes

/// Durations as written in profiles: an integer and a unit, `250ms`, `5s`, `2m`, `1h`.
public enum ProfileDuration {
    /// Parses `250ms`, `5s`, `2m` or `1h`; nil for anything else.
    public static func parse(_ text: String) -> Duration? {
        let units: [(suffix: String, scale: Int64)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)]
        for unit in units where text.hasSuffix(unit.suffix) {
            let number = text.dropLast(unit.suffix.count)
            guard !number.isEmpty, number.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let value = Int64(number), value <= Int64.max / unit.scale else { continue }
            return .milliseconds(value * unit.scale)
        }
        return nil
    }

    /// The shortest exact text for `duration` (`250ms`, `5s`, `2m`).
    public static func format(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        if milliseconds != 0, milliseconds % 3_600_000 == 0 { return "\(milliseconds / 3_600_000)h" }
        if milliseconds != 0, milliseconds % 60_000 == 0 { return "\(milliseconds / 60_000)m" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
        return "\(milliseconds)ms"
    }
}

/// Integers as written in profiles: decimal or `0x` hex.
enum ProfileInteger {
    static func parse(_ text: String) -> UInt64? {
        if text.hasPrefix("0x") || text.hasPrefix("0X") {
            let digits = text.dropFirst(2)
            guard !digits.isEmpty, digits.allSatisfy(\.isHexDigit) else { return nil }
            return UInt64(digits, radix: 16)
        }
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return UInt64(text)
    }
}

extension DecodingContext {
    /// A scalar's text (any style).
    func string(_ node: ProfileNode, _ what: String) -> String? {
        guard let text = node.scalar, node.mapping == nil else {
            wrongType(node, what, expected: "a text value")
            return nil
        }
        return text
    }

    /// An unsigned integer within `range`.
    func integer(_ node: ProfileNode, _ what: String, range: ClosedRange<UInt64> = 0...UInt64.max) -> UInt64? {
        observer?.sawInteger(at: node.location, range: range)
        guard let text = node.scalar else {
            wrongType(node, what, expected: "an integer")
            return nil
        }
        guard let value = ProfileInteger.parse(text) else {
            let reason = text.hasPrefix("-") ? "a non-negative integer" : "an integer (decimal or 0x hex)"
            wrongType(node, what, expected: reason)
            return nil
        }
        guard range.contains(value) else {
            error("\(what) must be in \(range.lowerBound)...\(range.upperBound), found \(text)", at: node.location)
            return nil
        }
        return value
    }

    /// An `Int` within `range`.
    func int(_ node: ProfileNode, _ what: String, range: ClosedRange<Int>) -> Int? {
        integer(node, what, range: UInt64(range.lowerBound)...UInt64(range.upperBound)).map { Int($0) }
    }

    func bool(_ node: ProfileNode, _ what: String) -> Bool? {
        switch node.scalar {
        case "true"?, "True"?, "TRUE"?, "yes"?: return true
        case "false"?, "False"?, "FALSE"?, "no"?: return false
        default:
            wrongType(node, what, expected: "true or false")
            return nil
        }
    }

    func duration(_ node: ProfileNode, _ what: String) -> Duration? {
        guard let text = node.scalar, let duration = ProfileDuration.parse(text) else {
            wrongType(node, what, expected: "a duration with a unit, such as 250ms, 5s or 2m")
            return nil
        }
        return duration
    }

    func uuid(_ node: ProfileNode, _ what: String) -> BluetoothUUID? {
        guard let text = node.scalar, let uuid = BluetoothUUID(string: text) else {
            wrongType(node, what, expected: "a Bluetooth UUID (180D, 0000180D or "
                + "XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX)")
            return nil
        }
        return uuid
    }

    /// One of the raw values of `Choice`.
    func choice<Choice: RawRepresentable & CaseIterable>(_ node: ProfileNode, _ what: String, _: Choice.Type) -> Choice?
        where Choice.RawValue == String {
        choice(node, what, cases: Array(Choice.allCases))
    }

    /// One of the raw values of `cases`.
    func choice<Choice: RawRepresentable>(_ node: ProfileNode, _ what: String, cases: [Choice]) -> Choice?
        where Choice.RawValue == String {
        let names = cases.map(\.rawValue)
        observer?.sawChoice(at: node.location, names: names)
        guard let text = node.scalar, let value = Choice(rawValue: text) else {
            let hint = node.scalar.flatMap { KeySuggestion.didYouMean($0, in: names) } ?? ""
            error("\(what) must be one of \(names.joined(separator: ", ")), found \(node.kindDescription)" + hint,
                  at: node.location)
            return nil
        }
        return value
    }

    /// A name used later in expressions: letters, digits and `_`, not starting with a digit.
    func identifier(_ node: ProfileNode, _ what: String) -> String? {
        guard let text = string(node, what) else { return nil }
        let scalars = Array(text.unicodeScalars)
        guard let first = scalars.first, ExpressionTokenizer.isIdentifierStart(first),
              scalars.allSatisfy({ ExpressionTokenizer.isIdentifierStart($0) || ExpressionTokenizer.isDigit($0) }),
              text != "true", text != "false" else {
            error("\(what) must be a name made of letters, digits and '_' (usable in expressions), found '\(text)'",
                  at: node.location)
            return nil
        }
        return text
    }

    /// An expression written as a scalar, remembered for the scope check.
    func expression(_ node: ProfileNode, _ what: String, scope: ExpressionScope = .general) -> Expression? {
        guard case .scalar(let text, let style) = node.content, !node.isNull else {
            wrongType(node, what, expected: "an expression")
            return nil
        }
        let quoted = style == .singleQuoted || style == .doubleQuoted
        let origin = quoted
            ? SourceLocation(file: node.location.file, line: node.location.line, column: node.location.column + 1)
            : node.location
        let exact = (style == .plain || quoted) && node.location.line == node.endLocation.line
        do {
            let parsed = try ExpressionParser.parseWithReferences(text, at: origin, exactColumns: exact)
            expressionUses.append(ExpressionUse(references: parsed.references, scope: scope))
            return parsed.expression
        } catch {
            var error = error
            if style == .plain, text.filter({ $0 == "(" }).count != text.filter({ $0 == ")" }).count {
                error.message += " (YAML splits [...] and {...} at commas: quote the expression if it has one)"
            }
            record(error)
            return nil
        }
    }

    /// A list of expressions; a single scalar counts as a list of one.
    func expressions(_ node: ProfileNode, _ what: String, scope: ExpressionScope = .general) -> [Expression] {
        if node.scalar != nil, !node.isNull {
            return expression(node, what, scope: scope).map { [$0] } ?? []
        }
        guard let items = list(node, what) else { return [] }
        return items.compactMap { expression($0, what, scope: scope) }
    }
}
