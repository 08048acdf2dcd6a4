import DFUBytes
import DFUProfile

/// What the values in a condition were when it was evaluated, for messages such as
/// `expected info.version == '1.2.0', saw info.version = '1.1.0'`.
package enum ConditionWitness {
    /// `path = value` for every distinct path `expression` mentions (in the order written),
    /// except those whose root is in `excluding`, joined with ", "; nil when none is left.
    /// Byte strings of up to 32 bytes are printed whole (a SHA-256 can then be compared by eye).
    package static func values(of expression: Expression, in scope: Scope, excluding: Set<String> = []) -> String? {
        var seen: [[String]] = []
        collect(expression.node, into: &seen)
        let shown = seen.filter { !excluding.contains($0[0]) }.map { path in
            "\(path.joined(separator: ".")) = " + (scope.lookup(path).map(render) ?? "(not defined)")
        }
        return shown.isEmpty ? nil : shown.joined(separator: ", ")
    }

    /// A value as the witness prints it.
    package static func render(_ value: Value) -> String {
        switch value {
        case .bytes(let bytes) where bytes.count <= 32: return bytes.isEmpty ? "0 bytes" : bytes.hexString
        default: return value.description
        }
    }

    private static func collect(_ node: Expression.Node, into paths: inout [[String]]) {
        switch node {
        case .integer, .boolean, .string: return
        case .path(let components): if !paths.contains(components) { paths.append(components) }
        case .call(_, let arguments): for argument in arguments { collect(argument, into: &paths) }
        case .unary(_, let operand): collect(operand, into: &paths)
        case .binary(_, let left, let right):
            collect(left, into: &paths)
            collect(right, into: &paths)
        }
    }
}
