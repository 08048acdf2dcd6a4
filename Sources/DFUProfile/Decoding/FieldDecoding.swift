import DFUBytes

extension DecodingContext {
    static let fieldKeys = ["name", "type", "value", "count", "map"]

    /// `u8`, `u16`, `u24`, `u32`, `u64` (optionally suffixed `le` or `be`), `bytes` or `cbor`.
    func fieldType(_ node: ProfileNode, _ what: String) -> FieldSpec.FieldType? {
        guard let text = string(node, what) else { return nil }
        if text == "bytes" { return .bytes(count: nil) }
        if text == "cbor" { return .cbor }
        var body = Substring(text)
        var endianness = defaultEndianness
        if body.hasSuffix("le") {
            endianness = .little
            body = body.dropLast(2)
        } else if body.hasSuffix("be") {
            endianness = .big
            body = body.dropLast(2)
        }
        let widths = ["u8": 1, "u16": 2, "u24": 3, "u32": 4, "u64": 8]
        guard let width = widths[String(body)] else {
            let known = ["u8", "u16", "u24", "u32", "u64", "bytes", "cbor"]
            observer?.sawChoice(at: node.location, names: known + widths.keys.sorted().flatMap { [$0 + "le", $0 + "be"] })
            let hint = KeySuggestion.didYouMean(text, in: known) ?? ""
            error("unknown field type '\(text)': use u8, u16, u24, u32 or u64 (with an optional le/be suffix, "
                  + "e.g. u16be), bytes or cbor" + hint, at: node.location)
            return nil
        }
        return .unsigned(width: width, endianness: endianness)
    }

    /// The fields of a message, in wire order. In messages that are received (`received`),
    /// only the last field may be a `bytes` field without a `count`.
    func fields(_ node: ProfileNode, _ what: String, received: Bool, scope: ExpressionScope) -> [FieldSpec]? {
        guard let items = list(node, what) else { return nil }
        if items.isEmpty {
            error("\(what) must list at least one field", at: node.location)
            return nil
        }
        var fields: [FieldSpec] = []
        var failed = false
        var names: [String: SourceLocation] = [:]
        for (index, item) in items.enumerated() {
            let fieldWhat = "field \(index + 1) of \(what)"
            guard let field = self.field(item, fieldWhat, scope: scope, received: received) else {
                failed = true
                continue
            }
            if let name = field.name {
                if let first = names[name] {
                    error("duplicate field name '\(name)' in \(what) (first at line \(first.line))", at: item.location)
                }
                names[name] = item.location
            }
            if received, case .bytes(count: nil) = field.type, index != items.count - 1 {
                error("in a received message only the last field may be 'bytes' without a 'count' "
                      + "(it takes the rest of the message)", at: item.location)
            }
            if case .cbor = field.type, index != items.count - 1 {
                error("a 'cbor' field takes the rest of the message: it must be the last field", at: item.location)
            }
            if case .cbor = field.type, !received, field.cborMap == nil {
                error("a 'cbor' field of a request needs its 'map' (e.g. map: { off: chunk.offset })",
                      at: item.location)
            }
            fields.append(field)
        }
        return failed ? nil : fields
    }

    /// One field. A request field's `value` (not `received`) may use `message`, the bytes of the
    /// fields before it; a `bytes` field of a request with a `count` and no `value` is padding.
    func field(_ node: ProfileNode, _ what: String, scope: ExpressionScope, received: Bool) -> FieldSpec? {
        guard let map = mapping(node, what, keys: Self.fieldKeys) else { return nil }
        let name = map.optional("name").flatMap { identifier($0, "'name' of \(what)") }
        guard let typeNode = map.required("type", self), var type = fieldType(typeNode, "'type' of \(what)") else {
            return nil
        }
        if let countNode = map.optional("count") {
            if case .bytes = type {
                guard let count = int(countNode, "'count' of \(what)", range: 1...65_535) else { return nil }
                type = .bytes(count: count)
            } else {
                error("'count' applies only to 'bytes' fields", at: countNode.location)
            }
        }
        var value: Expression?
        if let valueNode = map.optional("value") {
            if case .cbor = type {
                error("a 'cbor' field has no 'value': give its entries under 'map'", at: valueNode.location)
                return nil
            }
            value = fieldValue(valueNode, "'value' of \(what)", type: type, scope: received ? scope : .requestField)
            if value == nil { return nil }
        }
        var field = FieldSpec(name: name, type: type, value: value, location: node.location)
        if let mapNode = map.optional("map") {
            guard case .cbor = type else {
                error("'map' applies only to 'cbor' fields", at: mapNode.location)
                return nil
            }
            guard let entries = cborMap(mapNode, "'map' of \(what)", scope: scope) else { return nil }
            field.cborMap = entries
        }
        return field
    }

    /// A request's CBOR map: `key: expression` or `key: { value: expression, when: condition }`.
    private func cborMap(_ node: ProfileNode, _ what: String, scope: ExpressionScope) -> [FieldSpec.CBOREntry]? {
        guard let all = namedEntries(node, what) else { return nil }
        var entries: [FieldSpec.CBOREntry] = []
        var failed = false
        for entry in all.entries {
            let valueNode: ProfileNode?
            var when: Expression?
            if entry.value.mapping != nil {
                guard let inner = mapping(entry.value, "entry '\(entry.key)' of \(what)", keys: ["value", "when"]) else {
                    failed = true
                    continue
                }
                valueNode = inner.required("value", self)
                if let whenNode = inner.optional("when") {
                    when = expression(whenNode, "'when' of entry '\(entry.key)'", scope: scope)
                    if when == nil { failed = true }
                }
            } else {
                valueNode = entry.value
            }
            guard let valueNode, let value = cborValue(valueNode, "entry '\(entry.key)' of \(what)", scope: scope) else {
                failed = true
                continue
            }
            entries.append(FieldSpec.CBOREntry(key: entry.key, value: value, when: when))
        }
        return failed ? nil : entries
    }

    /// A CBOR map value: a plain integer literal or an expression.
    private func cborValue(_ node: ProfileNode, _ what: String, scope: ExpressionScope) -> Expression? {
        if case .scalar(let text, .plain) = node.content, let literal = ProfileInteger.parse(text) {
            return Expression(node: .integer(literal), text: text, location: node.location)
        }
        return expression(node, what, scope: scope)
    }

    /// A field's value: a plain YAML integer is a literal, any other scalar an expression.
    /// Integer literals must fit the field's width.
    private func fieldValue(_ node: ProfileNode, _ what: String, type: FieldSpec.FieldType, scope: ExpressionScope)
        -> Expression? {
        let expression: Expression
        if case .scalar(let text, .plain) = node.content, let literal = ProfileInteger.parse(text) {
            expression = Expression(node: .integer(literal), text: text, location: node.location)
        } else if case .scalar(let text, .plain) = node.content, text.first?.isNumber == true,
                  !text.contains(where: { " +-*/%<>&|!=(),".contains($0) }) {
            error("\(what) '\(text)' is not an integer (decimal or 0x hex)", at: node.location)
            return nil
        } else {
            guard let parsed = self.expression(node, what, scope: scope) else { return nil }
            expression = parsed
        }
        guard case .integer(let literal) = expression.node else { return expression }
        switch type {
        case .unsigned(let width, _):
            let maximum: UInt64 = width >= 8 ? UInt64.max : (1 << UInt64(width * 8)) - 1
            guard literal <= maximum else {
                error("value \(expression.text) does not fit in a u\(width * 8) field (0...\(maximum))",
                      at: expression.location)
                return nil
            }
        case .bytes:
            error("\(what) of a 'bytes' field must give bytes (an expression such as image.sha256), "
                  + "found the integer \(expression.text)", at: node.location)
            return nil
        case .cbor:
            return nil
        }
        return expression
    }
}
