/// Checks, once the whole profile is decoded, that every path in every expression starts with
/// a name something defines, and that members of well-known names exist.
///
/// The check is whole-profile (not flow-sensitive): a name is allowed anywhere if any step
/// defines it. Roots:
/// - `image` (members `ExpressionScopeChecker.imageMembers`), `link` (`linkMembers`) and
///   `stream.offset` (in receipt conditions);
/// - a command name or a `send ... as` alias (members: the fields of the command's response);
/// - a `set` variable (no members checked);
/// - a `chunks` alias (members `chunkMembers`) and a receipts alias (the notification's fields);
/// - inside a response's `match` and its field values: `request` and `response` (their fields);
/// - inside a request field's `value`: `message`, the bytes of the fields before it.
struct ExpressionScopeChecker {
    /// Members of `image` the engine provides.
    static let imageMembers = [
        "data", "size", "crc32", "sha256", "name", "version", "init_packet", "index", "count", "last",
        "sd_size", "bl_size", "app_size", "hash", "info",
    ]
    /// Members of `link` the engine provides.
    static let linkMembers = ["mtu", "reboot", "kind", "buffer"]
    /// Members of a chunk loop's alias.
    static let chunkMembers = ["offset", "from", "end", "size", "data", "index", "first", "last"]
    /// Members of a `read` step's alias.
    static let readMembers = ["value", "text", "size"]

    /// What a root name may be followed by: nil means any member.
    private var members: [String: Set<String>?] = [:]
    private let decoder: ProfileDecoder
    /// Names of `cbor` fields: what follows them (`reply.body.off`) is only known at run time.
    private let cborFieldNames: Set<String>

    init(decoder: ProfileDecoder, procedure: [Step]) {
        self.decoder = decoder
        let messages = decoder.commands.values.flatMap { [$0.request] + ($0.response.map { [$0.message] } ?? []) }
            + Array(decoder.notifications.values)
        cborFieldNames = Set(messages.flatMap(\.fields).filter {
            if case .cbor = $0.type { return true }
            return false
        }.compactMap(\.name))
        define("image", members: Self.imageMembers)
        define("link", members: Self.linkMembers)
        // Inside a stream's receipt `expect`: how many bytes of the stream were written.
        define("stream", members: ["offset"])
        // Which characteristics the connected device has (optional ones may be missing).
        define("present", members: decoder.definedCharacteristics)
        define("param", members: Array(decoder.parameters.keys))
        // A counter the engine increments for every request (SMP's sequence numbers).
        define("sequence", members: [])
        for name in decoder.definedCommands {
            define(name, members: responseFields(of: name))
        }
        collect(procedure)
        for name in decoder.context.looselyDefinedNames where members[name] == nil {
            define(name, members: nil)
        }
    }

    func check() {
        for use in decoder.context.expressionUses {
            var scope = members
            var requestField = false
            switch use.scope {
            case .responseMatch(let command):
                let spec = decoder.commands[command]
                let requestFields = spec.map { Set($0.request.fields.compactMap(\.name)) }
                let responseFields = spec.map { Set(($0.response?.message.fields ?? []).compactMap(\.name)) }
                scope.updateValue(requestFields, forKey: "request")
                scope.updateValue(responseFields, forKey: "response")
            case .requestField:
                scope.updateValue([], forKey: Expression.messageName)
                requestField = true
            case .general:
                break
            }
            for reference in use.references {
                check(reference, in: scope, requestField: requestField)
            }
        }
    }

    private func check(_ reference: ExpressionPathReference, in scope: [String: Set<String>?], requestField: Bool) {
        let root = reference.components[0]
        if root == Expression.messageName, let problem = messageProblem(requestField: requestField) {
            decoder.context.error(problem, at: reference.location)
            return
        }
        guard let allowed = scope[root] else {
            // Names from a section that failed to decode are unknown: do not report them again.
            guard decoder.context.failedSections.isDisjoint(with: ["commands", "notifications"]) else { return }
            let names = scope.keys.sorted()
            let hint = KeySuggestion.didYouMean(root, in: names)
                ?? " (it is not image, link, a command, an 'as' alias or a 'set' variable)"
            decoder.context.error("unknown name '\(root)' in expression" + hint, at: reference.location)
            return
        }
        guard reference.components.count > 1, let allowed else { return }
        let member = reference.components[1]
        guard allowed.contains(member) else {
            let known = allowed.sorted()
            let hint = KeySuggestion.didYouMean(member, in: known)
                ?? (known.isEmpty ? " (it has no fields)" : " (it has: \(known.joined(separator: ", ")))")
            decoder.context.error("'\(root)' has no field '\(member)'" + hint, at: reference.location)
            return
        }
        // `image.info.NAME`: what an image file's format read is only known at run time.
        let openRecord = cborFieldNames.contains(member) || (root == "image" && member == "info")
        if reference.components.count > 2, !openRecord {
            decoder.context.error("'\(root).\(member)' has no members; remove '.\(reference.components[2])'",
                                  at: reference.location)
        }
    }

    /// Why `message` cannot be used here, or nil: it exists only in a request field's `value`,
    /// where a command, alias or variable of the same name would be hidden by it.
    private func messageProblem(requestField: Bool) -> String? {
        let definedByProfile = members[Expression.messageName] != nil
        if requestField {
            return definedByProfile
                ? "'message' in a request field's value is the bytes of the fields before it, but this profile also "
                    + "defines 'message' (a command, an 'as' alias or a 'set' variable): rename that"
                : nil
        }
        return definedByProfile ? nil
            : "'message' (the bytes of a request encoded so far) exists only in the 'value' of a request's field, "
                + "not in responses, cbor maps or steps"
    }

    /// Adds `name` with `members` (nil: anything); a name defined twice with different member
    /// sets accepts the union.
    private mutating func define(_ name: String, members new: [String]?) {
        switch (members[name], new) {
        case (nil, _): members.updateValue(new.map { Set($0) }, forKey: name)
        case (.some(.some(let old)), .some(let new)): members.updateValue(old.union(new), forKey: name)
        default: members.updateValue(nil, forKey: name)
        }
    }

    /// Response field names of a command; nil (anything) when the command failed to decode.
    private func responseFields(of command: String) -> [String]? {
        guard let spec = decoder.commands[command] else { return nil }
        return (spec.response?.message.fields ?? []).compactMap(\.name)
    }

    private mutating func collect(_ steps: [Step]) {
        for step in steps {
            switch step.kind {
            case .send(let send):
                define(send.alias, members: responseFields(of: send.command).map { send.optional ? $0 + ["ok", "error"] : $0 })
            case .chunks(let loop):
                define(loop.alias, members: Self.chunkMembers)
                collect(loop.steps)
            case .stream(let stream):
                if let receipts = stream.receipts {
                    define(receipts.alias,
                           members: decoder.notifications[receipts.notification].map { $0.fields.compactMap(\.name) })
                }
            case .set(let bindings):
                for binding in bindings { define(binding.name, members: nil) }
            case .conditional(_, let then, let otherwise):
                collect(then)
                collect(otherwise)
            case .retry(_, let inner):
                define("retry", members: ["attempt"])
                collect(inner)
            case .await(let step):
                if step.alternatives.isEmpty {
                    define(step.alias,
                           members: decoder.notifications[step.notification].map { $0.fields.compactMap(\.name) })
                } else {
                    for name in step.notifications {
                        define(name, members: decoder.notifications[name].map { $0.fields.compactMap(\.name) })
                    }
                }
                define("awaited", members: [])
            case .serve(let loop):
                for name in [loop.request] + (loop.done.map { [$0] } ?? []) {
                    define(name, members: decoder.notifications[name].map { $0.fields.compactMap(\.name) })
                }
                define("awaited", members: [])
                define(loop.alias, members: Self.chunkMembers)
                collect(loop.steps)
            case .read(let step):
                define(step.alias, members: Self.readMembers)
            case .phase(let phase):
                collect(phase.steps)
            case .check, .reconnect, .wait, .fail, .observe:
                break
            }
        }
    }
}
