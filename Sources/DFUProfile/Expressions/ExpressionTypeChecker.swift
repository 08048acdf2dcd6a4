/// The kind of value an expression computes, as far as it is known before a device answers.
public enum ExpressionType: Sendable, Equatable, CustomStringConvertible {
    /// An unsigned integer, a condition, a byte string, text.
    case integer, boolean, bytes, text
    /// A record whose members are listed (nil: any member, e.g. a CBOR map a device sends).
    case record([String: ExpressionType]?)
    /// Only known at run time (a CBOR value, `get(...)`'s result).
    case unknown

    public var description: String {
        switch self {
        case .integer: return "an integer"
        case .boolean: return "a condition"
        case .bytes: return "bytes"
        case .text: return "text"
        case .record: return "a record"
        case .unknown: return "a value"
        }
    }
}

/// Checks expressions written outside a profile (a line file's `checks:` and `skip-installed:`)
/// against the names they may use, before anything runs: every path names a known root and
/// member (with a "did you mean" hint), operators get operands of the right kind, function
/// arguments are of the kinds `ExpressionFunction.argumentKind` asks for, comparisons with `==`
/// do not compare different kinds (always false at run time), and a condition is a condition.
///
/// The profile loader's own checks (`ExpressionScopeChecker`) cover names inside a profile; this
/// one also knows the types, since a line file names commands whose fields are fixed.
package struct ExpressionTypeChecker: Sendable {
    /// The roots an expression may start with, and what each is.
    package var roots: [String: ExpressionType]

    public init(roots: [String: ExpressionType]) {
        self.roots = roots
    }

    /// What `image.*` holds when a check runs (`FlashImage.record`).
    package static let imageRecord: ExpressionType = .record([
        "data": .bytes, "size": .integer, "crc32": .integer, "sha256": .bytes, "name": .text, "version": .text,
        "init_packet": .bytes, "index": .integer, "count": .integer, "last": .boolean, "sd_size": .integer,
        "bl_size": .integer, "app_size": .integer, "hash": .bytes, "info": .record(nil),
    ])

    /// What a `read` of a characteristic gives: its bytes, as UTF-8 text, and its size.
    package static let readRecord: ExpressionType = .record(["value": .bytes, "text": .text, "size": .integer])

    /// The fields of `command`'s response as a record (nil when the profile has no such command).
    package static func responseRecord(of command: String, in profile: Profile) -> ExpressionType? {
        guard let spec = profile.commands[command] else { return nil }
        var fields: [String: ExpressionType] = [:]
        for field in spec.response?.message.fields ?? [] {
            guard let name = field.name else { continue }
            switch field.type {
            case .unsigned: fields[name] = .integer
            case .bytes: fields[name] = .bytes
            case .cbor: fields[name] = .record(nil)
            }
        }
        return .record(fields)
    }

    /// `param.*` with the profile's parameters (an override's type is the default's).
    package static func parameterRecord(of profile: Profile) -> ExpressionType {
        .record(profile.parameters.mapValues { value in
            if case .integer = value { return .integer }
            return .text
        })
    }

    /// Every problem in `expression`, which must be a condition when `condition` is true; each
    /// at the place of the path it concerns when known (`references` from
    /// `ExpressionParser.parseWithReferences`), else at the expression.
    package func problems(in expression: Expression, references: [ExpressionPathReference] = [],
                         condition: Bool) -> [ProfileError] {
        var walk = Walk(checker: self, expression: expression, references: references)
        let type = walk.type(of: expression.node)
        if condition, walk.errors.isEmpty, type != .boolean, type != .unknown {
            walk.errors.append(ProfileError("'\(expression.text)' is \(type), not a condition (true or false); "
                                            + "compare it, e.g. with ==", at: expression.location))
        }
        return walk.errors
    }

    /// One pass over an expression, collecting errors.
    private struct Walk {
        let checker: ExpressionTypeChecker
        let expression: Expression
        let references: [ExpressionPathReference]
        var errors: [ProfileError] = []

        mutating func fail(_ message: String, path: [String]? = nil) {
            let location = path.flatMap { path in references.first { $0.components == path }?.location }
                ?? expression.location
            errors.append(ProfileError("in '\(expression.text)': \(message)", at: location))
        }

        mutating func type(of node: Expression.Node) -> ExpressionType {
            switch node {
            case .integer: return .integer
            case .boolean: return .boolean
            case .string: return .text
            case .path(let components): return type(ofPath: components)
            case .unary(let op, let operand):
                let operandType = type(of: operand)
                switch op {
                case .not:
                    require(operandType, .boolean, "'!' needs a condition")
                    return .boolean
                case .negate:
                    require(operandType, .integer, "'-' needs an integer")
                    return .integer
                }
            case .binary(let op, let left, let right):
                let (lhs, rhs) = (type(of: left), type(of: right))
                switch op {
                case .and, .or:
                    require(lhs, .boolean, "'\(op.rawValue)' needs conditions on both sides")
                    require(rhs, .boolean, "'\(op.rawValue)' needs conditions on both sides")
                    return .boolean
                case .equal, .notEqual:
                    if lhs != .unknown, rhs != .unknown, !Self.comparable(lhs, rhs) {
                        fail("'\(op.rawValue)' compares \(lhs) with \(rhs): they are never equal")
                    }
                    return .boolean
                case .less, .lessOrEqual, .greater, .greaterOrEqual:
                    require(lhs, .integer, "'\(op.rawValue)' compares integers, found \(lhs)")
                    require(rhs, .integer, "'\(op.rawValue)' compares integers, found \(rhs)")
                    return .boolean
                default:
                    require(lhs, .integer, "'\(op.rawValue)' needs integers, found \(lhs)")
                    require(rhs, .integer, "'\(op.rawValue)' needs integers, found \(rhs)")
                    return .integer
                }
            case .call(let function, let arguments):
                for (index, argument) in arguments.enumerated() {
                    let found = type(of: argument)
                    let expected: ExpressionType?
                    switch function.argumentKind(at: index) {
                    case .integer: expected = .integer
                    case .bytes: expected = .bytes
                    case .text: expected = .text
                    case .any: expected = nil
                    }
                    if let expected {
                        require(found, expected, "'\(function.rawValue)' takes \(expected) as argument \(index + 1), found \(found)")
                    }
                }
                return Self.result(of: function)
            }
        }

        private mutating func require(_ found: ExpressionType, _ expected: ExpressionType, _ message: String) {
            guard found != .unknown, found != expected else { return }
            if case .record = found, case .record = expected { return }
            fail(message)
        }

        private mutating func type(ofPath components: [String]) -> ExpressionType {
            guard let rootType = checker.roots[components[0]] else {
                let names = checker.roots.keys.sorted()
                let hint = KeySuggestion.didYouMean(components[0], in: names) ?? " (known: \(names.joined(separator: ", ")))"
                fail("unknown name '\(components[0])'" + hint, path: components)
                return .unknown
            }
            var current = rootType
            for (index, member) in components.dropFirst().enumerated() {
                let prefix = components[...index].joined(separator: ".")
                switch current {
                case .record(let members?):
                    guard let next = members[member] else {
                        let known = members.keys.sorted()
                        let hint = KeySuggestion.didYouMean(member, in: known)
                            ?? (known.isEmpty ? " (it has no fields)" : " (it has: \(known.joined(separator: ", ")))")
                        fail("'\(prefix)' has no field '\(member)'" + hint, path: components)
                        return .unknown
                    }
                    current = next
                case .record(nil), .unknown:
                    return .unknown
                default:
                    fail("'\(prefix)' is \(current): it has no member '\(member)'", path: components)
                    return .unknown
                }
            }
            return current
        }

        private static func comparable(_ lhs: ExpressionType, _ rhs: ExpressionType) -> Bool {
            switch (lhs, rhs) {
            case (.record, .record): return true
            default: return lhs == rhs
            }
        }

        private static func result(of function: ExpressionFunction) -> ExpressionType {
            switch function {
            case .min, .max, .len, .crc32, .crc16, .crc, .sum, .xor8, .fletcher16, .fletcher32, .adler32, .alignDown,
                 .le, .be:
                return .integer
            case .slice, .sha256, .reverse, .concat, .unhex, .u8, .u16le, .u16be, .u24le, .u24be, .u32le, .u32be,
                 .u64le, .u64be:
                return .bytes
            case .has: return .boolean
            case .find: return .record(nil)
            case .get: return .unknown
            }
        }
    }
}
