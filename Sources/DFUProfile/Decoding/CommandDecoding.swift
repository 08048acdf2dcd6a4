extension ProfileDecoder {
    static let commandKeys = ["characteristic", "timeout", "request", "response", "reboots", "changes-device"]
    static let responseKeys = ["fields", "match", "status", "characteristic"]
    static let statusKeys = ["field", "success", "codes", "detail"]
    static let detailKeys = ["when", "field", "codes"]

    func decodeCommands(_ node: ProfileNode) {
        guard let all = context.namedEntries(node, "'commands'") else {
            context.failedSections.insert("commands")
            return
        }
        for entry in all.entries {
            definedCommands.append(entry.key)
        }
        for entry in all.entries {
            let what = "command '\(entry.key)'"
            _ = context.identifier(entry.keyNode, "the command name '\(entry.key)'")
            guard let map = context.mapping(entry.value, what, keys: Self.commandKeys) else { continue }
            let characteristic = characteristicReference(map.required("characteristic", context))
            let timeout = context.optional(map.optional("timeout")) { context.duration($0, "'timeout' of \(what)") }
            let requestFields = map.required("request", context).flatMap {
                context.fields($0, "the request of \(what)", received: false, scope: .general)
            }
            let response = context.optional(map.optional("response")) {
                decodeResponse($0, command: entry.key, defaultCharacteristic: characteristic)
            }
            let reboots = context.optional(map.optional("reboots")) { decodeReboots($0, "'reboots' of \(what)") }
            let changesDevice = context.optional(map.optional("changes-device")) { context.bool($0, "'changes-device' of \(what)") }
            guard let characteristic, let timeout, let requestFields, let response, let reboots, let changesDevice else { continue }
            let request = MessageSpec(name: entry.key, characteristic: characteristic, fields: requestFields,
                                      location: entry.keyNode.location)
            var command = CommandSpec(name: entry.key, request: request, response: response, timeout: timeout,
                                      location: entry.keyNode.location)
            command.reboots = reboots ?? nil
            command.changesDevice = changesDevice ?? false
            commands[entry.key] = command
        }
    }

    func decodeResponse(_ node: ProfileNode, command: String, defaultCharacteristic: String?) -> ResponseSpec? {
        let what = "the response of command '\(command)'"
        guard let map = context.mapping(node, what, keys: Self.responseKeys) else { return nil }
        var characteristic = defaultCharacteristic
        if map.contains("characteristic") {
            characteristic = characteristicReference(map.required("characteristic", context))
        }
        let scope = ExpressionScope.responseMatch(command: command)
        let fields = map.required("fields", context).flatMap {
            context.fields($0, "the fields of \(what)", received: true, scope: scope)
        }
        let match = map.optional("match").map { context.expressions($0, "'match' of \(what)", scope: scope) } ?? []
        // `status` is one mapping, or a list of them checked in order.
        var statuses: [StatusSpec]? = []
        if let statusNode = map.optional("status") {
            let items = statusNode.sequence ?? [statusNode]
            let decoded = items.compactMap { decodeStatus($0, what: "'status' of \(what)", fields: fields) }
            statuses = decoded.count == items.count ? decoded : nil
        }
        guard let characteristic, let fields, let statuses else { return nil }
        let message = MessageSpec(name: command, characteristic: characteristic, fields: fields,
                                  location: node.location)
        var response = ResponseSpec(message: message, match: match, status: statuses.first)
        response.moreStatuses = Array(statuses.dropFirst())
        return response
    }

    /// `fields` is nil when the response's fields had errors (then field names are not checked).
    func decodeStatus(_ node: ProfileNode, what: String, fields: [FieldSpec]?) -> StatusSpec? {
        guard let map = context.mapping(node, what, keys: Self.statusKeys) else { return nil }
        let field = map.required("field", context).flatMap { responseField($0, fields: fields) }
        var success: [UInt64]? = [0]
        if let successNode = map.optional("success") {
            if successNode.scalar != nil {
                success = context.integer(successNode, "'success'").map { [$0] }
            } else {
                let items = context.list(successNode, "'success'") ?? []
                let codes = items.compactMap { context.integer($0, "a code of 'success'") }
                success = codes.count == items.count ? codes : nil
            }
        }
        let codes = context.optional(map.optional("codes"), codeTableReference)
        let detail = context.optional(map.optional("detail")) {
            decodeDetail($0, what: "'detail' of \(what)", fields: fields)
        }
        guard let field, let success, let codes, let detail else { return nil }
        return StatusSpec(field: field, success: success, codes: codes, detail: detail, location: node.location)
    }

    func decodeDetail(_ node: ProfileNode, what: String, fields: [FieldSpec]?) -> StatusSpec.Detail? {
        guard let map = context.mapping(node, what, keys: Self.detailKeys) else { return nil }
        let when = map.required("when", context).flatMap { context.integer($0, "'when'") }
        let field = context.optional(map.optional("field")) { responseField($0, fields: fields) }
        let codes = context.optional(map.optional("codes"), codeTableReference)
        guard let when, let field, let codes else { return nil }
        return StatusSpec.Detail(when: when, field: field, codes: codes)
    }

    /// A named field of the response, or a path into one of its `cbor` fields (`body.rc`).
    func responseField(_ node: ProfileNode, fields: [FieldSpec]?) -> String? {
        guard let path = context.string(node, "'field'") else { return nil }
        guard let fields else { return path }
        let name = String(path.split(separator: ".", omittingEmptySubsequences: false).first ?? "")
        let names = fields.compactMap(\.name)
        if name != path {
            guard let field = fields.first(where: { $0.name == name }), case .cbor = field.type else {
                context.error("'\(path)': only a 'cbor' field can be followed by '.KEY'", at: node.location)
                return nil
            }
            return path
        }
        guard names.contains(name) else {
            let hint = KeySuggestion.didYouMean(name, in: names)
                ?? (names.isEmpty ? " (it has no named fields)" : " (fields: \(names.joined(separator: ", ")))")
            context.error("'\(name)' is not a field of the response" + hint, at: node.location)
            return nil
        }
        return name
    }

    /// A reference to a code table.
    func codeTableReference(_ node: ProfileNode) -> String? {
        guard let name = context.string(node, "'codes'") else { return nil }
        return reference(name, at: node, kind: "code table", section: "codes", known: definedCodeTables)
    }
}
