/// The variables an expression can see: `image`, `link`, each command's response (by alias),
/// loop variables and `set` variables. Later bindings replace earlier ones.
public struct Scope: Sendable {
    private var variables: [String: Value] = [:]

    /// A scope with these variables.
    public init(_ variables: [String: Value] = [:]) {
        self.variables = variables
    }

    /// The variable called `name`; setting it replaces an earlier binding, nil removes it.
    public subscript(name: String) -> Value? {
        get { variables[name] }
        set { variables[name] = newValue }
    }

    /// Resolves `a.b.c`; nil when any part is missing.
    package func lookup(_ path: [String]) -> Value? {
        guard let first = path.first, var value = variables[first] else { return nil }
        for component in path.dropFirst() {
            guard case let .record(fields) = value, let next = fields[component] else { return nil }
            value = next
        }
        return value
    }
}
