/// A path (`status.offset`) written in an expression and where it was written; the decoder
/// checks that its root can be defined.
public struct ExpressionPathReference: Sendable, Hashable {
    /// The path's parts: `status.offset` is ["status", "offset"].
    public var components: [String]
    /// Where the path was written.
    public var location: SourceLocation
}

/// Parses expression text into an `Expression` by precedence climbing.
///
/// Precedence, loosest first (all binary operators are left-associative):
///
/// | level | operators |
/// |---|---|
/// | 1 | `\|\|` |
/// | 2 | `&&` |
/// | 3 | `==` `!=` |
/// | 4 | `<` `<=` `>` `>=` |
/// | 5 | `\|` |
/// | 6 | `&` |
/// | 7 | `<<` `>>` |
/// | 8 | `+` `-` |
/// | 9 | `*` `/` `%` |
/// | 10 | unary `!` `-` |
///
/// Bitwise operators bind tighter than comparisons (unlike C), so `flags & 0x0F == 0` means
/// `(flags & 0x0F) == 0`.
package enum ExpressionParser {
    /// Binding strength of each binary operator; higher binds tighter.
    package static func precedence(of binary: Expression.BinaryOperator) -> Int {
        switch binary {
        case .or: return 1
        case .and: return 2
        case .equal, .notEqual: return 3
        case .less, .lessOrEqual, .greater, .greaterOrEqual: return 4
        case .bitOr: return 5
        case .bitAnd: return 6
        case .shiftLeft, .shiftRight: return 7
        case .add, .subtract: return 8
        case .multiply, .divide, .remainder: return 9
        }
    }

    /// Parses `text`, whose first character is at `origin`. When `exactColumns` is true (the
    /// text sits on one line of the file as written), errors point at the column of the bad
    /// token; otherwise they point at `origin`.
    public static func parse(_ text: String, at origin: SourceLocation, exactColumns: Bool = true)
        throws(ProfileError) -> Expression {
        try parseWithReferences(text, at: origin, exactColumns: exactColumns).expression
    }

    /// Parses `text` and also returns every path it mentions, with its location.
    package static func parseWithReferences(_ text: String, at origin: SourceLocation, exactColumns: Bool = true)
        throws(ProfileError) -> (expression: Expression, references: [ExpressionPathReference]) {
        func location(_ offset: Int) -> SourceLocation {
            guard exactColumns else { return origin }
            return SourceLocation(file: origin.file, line: origin.line, column: origin.column + offset)
        }
        do throws(ExpressionSyntaxError) {
            let tokens = try ExpressionTokenizer.tokenize(text)
            var parser = TokenParser(tokens: tokens)
            let node = try parser.parseExpression(minimumPrecedence: 1)
            let trailing = parser.current
            guard trailing.kind == .end else {
                throw ExpressionSyntaxError(message: "unexpected \(trailing.quoted) after a complete expression",
                                            offset: trailing.offset)
            }
            let references = parser.paths.map {
                ExpressionPathReference(components: $0.components, location: location($0.offset))
            }
            return (Expression(node: node, text: text, location: origin), references)
        } catch {
            throw ProfileError("in expression '\(text)': \(error.message)", at: location(error.offset))
        }
    }
}

extension Expression {
    /// Parses expression text (see `ExpressionParser`); `location` is where its first
    /// character was written.
    public init(parsing text: String, at location: SourceLocation) throws(ProfileError) {
        self = try ExpressionParser.parse(text, at: location)
    }
}

/// The recursive-descent / precedence-climbing core over a token list.
private struct TokenParser {
    let tokens: [ExpressionToken]
    var position = 0
    var paths: [(components: [String], offset: Int)] = []

    init(tokens: [ExpressionToken]) {
        self.tokens = tokens
    }

    var current: ExpressionToken { tokens[position] }

    mutating func advance() {
        if position < tokens.count - 1 { position += 1 }
    }

    func binaryOperator(_ token: ExpressionToken) -> Expression.BinaryOperator? {
        guard case .symbol(let symbol) = token.kind else { return nil }
        return Expression.BinaryOperator(rawValue: symbol)
    }

    mutating func parseExpression(minimumPrecedence: Int) throws(ExpressionSyntaxError) -> Expression.Node {
        var left = try parseUnary()
        while let binary = binaryOperator(current) {
            let precedence = ExpressionParser.precedence(of: binary)
            guard precedence >= minimumPrecedence else { break }
            advance()
            let right = try parseExpression(minimumPrecedence: precedence + 1)
            left = .binary(binary, left, right)
        }
        return left
    }

    mutating func parseUnary() throws(ExpressionSyntaxError) -> Expression.Node {
        if case .symbol(let symbol) = current.kind, let unary = Expression.UnaryOperator(rawValue: symbol) {
            advance()
            return .unary(unary, try parseUnary())
        }
        return try parsePrimary()
    }

    mutating func parsePrimary() throws(ExpressionSyntaxError) -> Expression.Node {
        let token = current
        switch token.kind {
        case .integer(let value):
            advance()
            return .integer(value)
        case .string(let text):
            advance()
            return .string(text)
        case .identifier(let name):
            advance()
            if name == "true" || name == "false" {
                return .boolean(name == "true")
            }
            if current.kind == .symbol("(") {
                return try parseCall(name: name, at: token.offset)
            }
            var components = [name]
            while current.kind == .symbol(".") {
                advance()
                guard case .identifier(let member) = current.kind else {
                    throw ExpressionSyntaxError(message: "expected a name after '.', found \(current.quoted)",
                                                offset: current.offset)
                }
                components.append(member)
                advance()
            }
            paths.append((components, token.offset))
            return .path(components)
        case .symbol("("):
            advance()
            let inner = try parseExpression(minimumPrecedence: 1)
            guard current.kind == .symbol(")") else {
                throw ExpressionSyntaxError(
                    message: "expected ')' to close '(', found \(current.quoted)",
                    offset: current.offset)
            }
            advance()
            return inner
        default:
            throw ExpressionSyntaxError(message: "expected a value, found \(token.quoted)", offset: token.offset)
        }
    }

    mutating func parseCall(name: String, at offset: Int) throws(ExpressionSyntaxError) -> Expression.Node {
        guard let function = ExpressionFunction(rawValue: name) else {
            let known = ExpressionFunction.allCases.map(\.rawValue)
            let hint = KeySuggestion.didYouMean(name, in: known)
                ?? " (functions: \(known.joined(separator: ", ")))"
            throw ExpressionSyntaxError(message: "unknown function '\(name)'" + hint, offset: offset)
        }
        advance()  // "("
        var arguments: [Expression.Node] = []
        var offsets: [Int] = []
        if current.kind != .symbol(")") {
            while true {
                offsets.append(current.offset)
                arguments.append(try parseExpression(minimumPrecedence: 1))
                if current.kind == .symbol(",") {
                    advance()
                    continue
                }
                break
            }
        }
        guard current.kind == .symbol(")") else {
            throw ExpressionSyntaxError(
                message: "expected ',' or ')' in the call of '\(name)', found \(current.quoted)", offset: current.offset)
        }
        advance()
        guard function.arity.contains(arguments.count) else {
            throw ExpressionSyntaxError(
                message: "'\(name)' takes \(Self.describe(function.arity)), found \(arguments.count)",
                offset: offset)
        }
        for (index, argument) in arguments.enumerated() {
            if let problem = function.problem(withLiteral: argument, at: index) {
                throw ExpressionSyntaxError(message: problem, offset: offsets[index])
            }
        }
        return .call(function, arguments)
    }

    static func describe(_ arity: ClosedRange<Int>) -> String {
        if arity.lowerBound == arity.upperBound {
            return arity.lowerBound == 1 ? "1 argument" : "\(arity.lowerBound) arguments"
        }
        return "\(arity.lowerBound) to \(arity.upperBound) arguments"
    }
}
