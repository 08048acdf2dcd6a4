import DFUBytes
import DFUProfile

/// Why an expression could not be evaluated (a profile bug or an unexpected device value).
public struct EvaluationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The expression's text as written in the profile.
    public var expression: String
    /// Where it was written.
    public var location: SourceLocation
    /// Why it could not be evaluated.
    public var message: String

    public var description: String { "\(location): error: in '\(expression)': \(message)" }
}

/// Evaluates profile expressions against a scope. Pure.
package enum ExpressionEvaluator {
    package static func evaluate(_ expression: Expression, in scope: Scope) throws(EvaluationError) -> Value {
        do {
            return try evaluate(expression.node, in: scope)
        } catch let failure {
            throw EvaluationError(expression: expression.text, location: expression.location, message: failure.message)
        }
    }

    public static func integer(_ expression: Expression, in scope: Scope) throws(EvaluationError) -> UInt64 {
        let value = try evaluate(expression, in: scope)
        guard case let .integer(number) = value else {
            throw EvaluationError(expression: expression.text, location: expression.location,
                                  message: "expected an integer, got \(value.typeName) \(value)")
        }
        return number
    }

    public static func bytes(_ expression: Expression, in scope: Scope) throws(EvaluationError) -> [UInt8] {
        let value = try evaluate(expression, in: scope)
        guard case let .bytes(bytes) = value else {
            throw EvaluationError(expression: expression.text, location: expression.location,
                                  message: "expected bytes, got \(value.typeName) \(value)")
        }
        return bytes
    }

    public static func condition(_ expression: Expression, in scope: Scope) throws(EvaluationError) -> Bool {
        let value = try evaluate(expression, in: scope)
        guard case let .boolean(flag) = value else {
            throw EvaluationError(expression: expression.text, location: expression.location,
                                  message: "expected a condition (true/false), got \(value.typeName) \(value)")
        }
        return flag
    }

    struct Failure: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    static func evaluate(_ node: Expression.Node, in scope: Scope) throws(Failure) -> Value {
        switch node {
        case let .integer(value): return .integer(value)
        case let .boolean(value): return .boolean(value)
        case let .string(value): return .string(value)
        case let .path(path):
            guard let value = scope.lookup(path) else {
                throw Failure("'\(path.joined(separator: "."))' is not defined at this point of the procedure")
            }
            return value
        case let .unary(op, operand):
            let value = try evaluate(operand, in: scope)
            switch (op, value) {
            case let (.not, .boolean(flag)): return .boolean(!flag)
            case (.negate, .integer(0)): return .integer(0)
            default: throw Failure("cannot apply '\(op.rawValue)' to \(value.typeName)")
            }
        case let .binary(op, left, right):
            return try binary(op, left, right, in: scope)
        case let .call(function, arguments):
            var values: [Value] = []
            for argument in arguments { values.append(try evaluate(argument, in: scope)) }
            return try BuiltinFunctions.call(function, values)
        }
    }

    private static func binary(_ op: Expression.BinaryOperator, _ left: Expression.Node, _ right: Expression.Node,
                               in scope: Scope) throws(Failure) -> Value {
        // Short-circuit logic first, so `a && a.b` style guards work.
        if op == .and || op == .or {
            guard case let .boolean(lhs) = try evaluate(left, in: scope) else { throw Failure("'\(op.rawValue)' needs conditions") }
            if op == .and && !lhs { return .boolean(false) }
            if op == .or && lhs { return .boolean(true) }
            guard case let .boolean(rhs) = try evaluate(right, in: scope) else { throw Failure("'\(op.rawValue)' needs conditions") }
            return .boolean(rhs)
        }
        let lhs = try evaluate(left, in: scope)
        let rhs = try evaluate(right, in: scope)
        switch op {
        case .equal: return .boolean(lhs == rhs)
        case .notEqual: return .boolean(lhs != rhs)
        default: break
        }
        guard case let .integer(a) = lhs, case let .integer(b) = rhs else {
            throw Failure("'\(op.rawValue)' needs integers, got \(lhs.typeName) and \(rhs.typeName)")
        }
        switch op {
        case .add:
            let (sum, overflow) = a.addingReportingOverflow(b)
            if overflow { throw Failure("\(a) + \(b) overflows") }
            return .integer(sum)
        case .subtract:
            guard a >= b else { throw Failure("\(a) - \(b) would be negative") }
            return .integer(a - b)
        case .multiply:
            let (product, overflow) = a.multipliedReportingOverflow(by: b)
            if overflow { throw Failure("\(a) * \(b) overflows") }
            return .integer(product)
        case .divide, .remainder:
            guard b != 0 else { throw Failure("division by zero") }
            return .integer(op == .divide ? a / b : a % b)
        case .shiftLeft: return .integer(b >= 64 ? 0 : a << b)
        case .shiftRight: return .integer(b >= 64 ? 0 : a >> b)
        case .bitAnd: return .integer(a & b)
        case .bitOr: return .integer(a | b)
        case .less: return .boolean(a < b)
        case .lessOrEqual: return .boolean(a <= b)
        case .greater: return .boolean(a > b)
        case .greaterOrEqual: return .boolean(a >= b)
        case .equal, .notEqual, .and, .or: return .boolean(false)  // handled above
        }
    }
}
