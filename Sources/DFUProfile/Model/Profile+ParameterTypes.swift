/// Which values each parameter takes, read from how the profile uses it.
extension Profile {
    /// The parameter's type: `unhex(param.NAME)` anywhere makes it hex; an integer field (or
    /// `u16le(...)` and the like) written straight from `param.NAME`, or from a variable `set`
    /// straight from it, makes it an unsigned integer of the narrowest such width; otherwise its
    /// default says: an integer default makes it an unsigned integer, a text default a text.
    /// Nil for a name the profile does not declare.
    public func parameterType(of name: String) -> ParameterType? {
        guard let defaultValue = parameters[name] else { return nil }
        var uses = ParameterUses(parameter: name)
        uses.collectAliases(procedure)
        for command in commands.values.sorted(by: { $0.name < $1.name }) {
            for field in command.request.fields {
                if let value = field.value {
                    if case let .unsigned(width, _) = field.type { uses.integerField(value.node, bits: width * 8) }
                    uses.scan(value.node)
                }
                for entry in field.cborMap ?? [] { uses.scan(entry.value.node) }
            }
        }
        uses.scanSteps(procedure)
        if uses.hex { return .hex }
        if let bits = uses.bits { return .unsigned(bits: bits) }
        if case .integer = defaultValue { return .unsigned(bits: 64) }
        return .text
    }

    /// The parameters a command's request reads (`param.NAME` in its fields), in name order.
    public func parameters(usedBy command: CommandSpec) -> [String] {
        var names: Set<String> = []
        for field in command.request.fields {
            var expressions = field.value.map { [$0.node] } ?? []
            expressions += (field.cborMap ?? []).flatMap { [$0.value.node] + ($0.when.map { [$0.node] } ?? []) }
            for node in expressions { node.collectParameters(into: &names) }
        }
        return names.sorted()
    }
}

/// How one parameter is used, gathered from the profile's expressions.
private struct ParameterUses {
    let parameter: String
    /// Variables `set` straight from the parameter (`set: { receipt_interval: param.prn }`).
    var aliases: Set<String> = []
    var bits: Int?
    var hex = false

    init(parameter: String) {
        self.parameter = parameter
    }

    /// Whether `node` is the parameter itself or a variable set from it.
    func isParameter(_ node: Expression.Node) -> Bool {
        guard case let .path(components) = node else { return false }
        return components == ["param", parameter] || (components.count == 1 && aliases.contains(components[0]))
    }

    mutating func integerField(_ node: Expression.Node, bits: Int) {
        if isParameter(node) { self.bits = min(self.bits ?? bits, bits) }
    }

    mutating func scan(_ node: Expression.Node) {
        switch node {
        case .integer, .boolean, .string, .path: return
        case let .call(function, arguments):
            if let argument = arguments.first, isParameter(argument) {
                switch function {
                case .unhex: hex = true
                case .u8: integerField(argument, bits: 8)
                case .u16le, .u16be: integerField(argument, bits: 16)
                case .u24le, .u24be: integerField(argument, bits: 24)
                case .u32le, .u32be: integerField(argument, bits: 32)
                default: break
                }
            }
            for argument in arguments { scan(argument) }
        case let .unary(_, operand): scan(operand)
        case let .binary(_, left, right):
            scan(left)
            scan(right)
        }
    }

    mutating func collectAliases(_ steps: [Step]) {
        Step.visit(steps) { step in
            if case let .set(bindings) = step.kind {
                for binding in bindings where binding.value.node == .path(["param", parameter]) {
                    aliases.insert(binding.name)
                }
            }
        }
    }

    mutating func scanSteps(_ steps: [Step]) {
        var expressions: [Expression.Node] = []
        Step.visit(steps) { step in
            if case let .set(bindings) = step.kind { expressions += bindings.map(\.value.node) }
        }
        for node in expressions { scan(node) }
    }
}

extension Step {
    /// Calls `body` with every step of `steps`, nested ones included, in order.
    static func visit(_ steps: [Step], _ body: (Step) -> Void) {
        for step in steps {
            body(step)
            switch step.kind {
            case let .chunks(loop): visit(loop.steps, body)
            case let .conditional(_, then, otherwise):
                visit(then, body)
                visit(otherwise, body)
            case let .retry(_, inner): visit(inner, body)
            case let .phase(phase): visit(phase.steps, body)
            case let .serve(loop): visit(loop.steps, body)
            default: break
            }
        }
    }
}

extension Expression.Node {
    /// Adds every `param.NAME` the expression reads to `names`.
    func collectParameters(into names: inout Set<String>) {
        switch self {
        case .integer, .boolean, .string: return
        case let .path(components):
            if components.count >= 2, components[0] == "param" { names.insert(components[1]) }
        case let .call(_, arguments): for argument in arguments { argument.collectParameters(into: &names) }
        case let .unary(_, operand): operand.collectParameters(into: &names)
        case let .binary(_, left, right):
            left.collectParameters(into: &names)
            right.collectParameters(into: &names)
        }
    }
}
