extension ProfileDecoder {
    /// The key that names each kind of step, with the other keys that kind accepts.
    static let stepKinds: [(key: String, extra: [String])] = [
        ("send", ["as", "timeout", "retries", "expect", "optional", "reboots", "verifies", "once"]),
        ("if", ["then", "else"]),
        ("set", []),
        ("chunks", []),
        ("stream", []),
        ("check", ["message", "holds", "verifies"]),
        ("retry", []),
        ("reconnect", []),
        ("wait", []),
        ("fail", []),
        ("await", ["as", "timeout", "expect"]),
        ("phase", ["done", "achieves", "repeatable", "resumable", "lost-on-disconnect", "unproven", "unproven-holds",
                   "steps"]),
        ("serve", []),
        ("read", ["as", "expect", "once"]),
        ("observe", ["before", "after", "new", "verifies"]),
    ]
    static let chunkKeys = ["data", "from", "size", "as", "progress", "aligned", "next", "window", "steps"]
    static let streamKeys = ["data", "from", "to", "write", "segment", "progress", "receipts"]
    static let receiptKeys = ["every", "notification", "as", "expect", "timeout"]

    /// A list of steps; steps with errors are left out (their errors are reported).
    func decodeSteps(_ node: ProfileNode, _ what: String) -> [Step] {
        guard let items = context.list(node, what) else { return [] }
        return items.compactMap(decodeStep)
    }

    /// Decodes one step. When it fails, the expressions inside it are not scope-checked and the
    /// names it would have defined are accepted, so that one mistake gives one error.
    func decodeStep(_ node: ProfileNode) -> Step? {
        let usesBefore = context.expressionUses.count
        guard let step = decodeStepKind(node) else {
            context.expressionUses.removeSubrange(min(usesBefore, context.expressionUses.count)...)
            collectNames(in: node)
            return nil
        }
        return step
    }

    /// Every name a (failed) step's text would define: `as`, `send`, `notification` values and
    /// `set` keys, at any depth, plus the default chunk alias.
    private func collectNames(in node: ProfileNode) {
        if let items = node.sequence {
            items.forEach(collectNames)
        }
        guard let entries = node.mapping else { return }
        context.looselyDefinedNames.insert("chunk")
        for entry in entries {
            switch entry.key.scalar {
            case "as"?, "send"?, "notification"?, "await"?:
                if let name = entry.value.scalar { context.looselyDefinedNames.insert(name) }
            case "set"?:
                for binding in entry.value.mapping ?? [] {
                    if let name = binding.key.scalar { context.looselyDefinedNames.insert(name) }
                }
            default:
                collectNames(in: entry.value)
            }
        }
    }

    private func decodeStepKind(_ node: ProfileNode) -> Step? {
        let kindNames = Self.stepKinds.map(\.key)
        guard let raw = context.namedEntries(node, "a step") else { return nil }
        let present = raw.entries.filter { kindNames.contains($0.key) }
        guard let kindEntry = present.first else {
            let first = raw.entries.first
            let hint = first.flatMap { KeySuggestion.didYouMean($0.key, in: kindNames) } ?? ""
            context.error("a step must have one of the keys \(kindNames.joined(separator: ", "))"
                          + (first.map { ", found '\($0.key)'" } ?? "") + hint,
                          at: first?.keyNode.location ?? node.location)
            return nil
        }
        if present.count > 1 {
            context.error("a step has exactly one of \(kindNames.joined(separator: ", ")); this one has both "
                          + "'\(kindEntry.key)' and '\(present[1].key)' (start a new '-' item)",
                          at: present[1].keyNode.location)
            return nil
        }
        let kind = kindEntry.key
        let extra = Self.stepKinds.first { $0.key == kind }?.extra ?? []
        guard let map = context.mapping(node, "a '\(kind)' step", keys: [kind] + extra) else { return nil }
        let value = kindEntry.value
        let stepKind: Step.Kind?
        switch kind {
        case "send": stepKind = decodeSend(value, map)
        case "if": stepKind = decodeConditional(value, map)
        case "set": stepKind = decodeSet(value)
        case "chunks": stepKind = decodeChunks(value)
        case "stream": stepKind = decodeStream(value)
        case "check":
            let condition = context.expression(value, "'check'")
            let message = map.optional("message").map { context.string($0, "'message'") }
                ?? "check failed: \(value.scalar ?? "")"
            let holds = map.optional("holds").map { node -> [FirmwareStage]? in
                let items = node.sequence ?? [node]
                let stages = items.compactMap { context.choice($0, "'holds'", FirmwareStage.self) }
                return stages.count == items.count ? stages : nil
            } ?? []
            let verifies = map.optional("verifies").map { context.bool($0, "'verifies'") } ?? false
            guard let condition, let message, let holds, let verifies else { return nil }
            stepKind = .check(condition: condition, message: message, holds: holds, verifies: verifies)
        case "retry": stepKind = decodeRetry(value)
        case "reconnect": stepKind = decodeReconnect(value)
        case "wait": stepKind = context.duration(value, "'wait'").map { .wait($0) }
        case "await": stepKind = decodeAwait(value, map)
        case "phase": stepKind = decodePhase(value, map)
        case "serve": stepKind = decodeServe(value)
        case "read": stepKind = decodeRead(value, map)
        case "observe": stepKind = decodeObserve(value, map)
        default: stepKind = context.string(value, "'fail'").map { .fail(message: $0) }
        }
        return stepKind.map { Step(kind: $0, location: kindEntry.keyNode.location) }
    }

    private func decodeSend(_ value: ProfileNode, _ map: MappingReader) -> Step.Kind? {
        guard let name = context.string(value, "'send'"),
              let command = reference(name, at: value, kind: "command", section: "commands", known: definedCommands)
        else { return nil }
        let alias = map.optional("as").map { context.identifier($0, "'as'") } ?? command
        let timeout = context.optional(map.optional("timeout")) { context.duration($0, "'timeout'") }
        let retries = context.optional(map.optional("retries")) { context.int($0, "'retries'", range: 0...100) }
        let expect = map.optional("expect").map { context.expressions($0, "'expect'") } ?? []
        let optional = map.optional("optional").map { context.bool($0, "'optional'") } ?? false
        let reboots = context.optional(map.optional("reboots")) { decodeReboots($0, "'reboots'") }
        let verifiesNode = map.optional("verifies")
        let verifies = verifiesNode.map { context.bool($0, "'verifies'") } ?? false
        if verifies == true, let verifiesNode, let defined = commands[command], defined.response == nil,
           characteristics.first(where: { $0.name == defined.request.characteristic })?.writeType == .withoutResponse {
            context.error("'verifies' needs an answer to check: command '\(command)' has no response and its "
                              + "characteristic is written without response", at: verifiesNode.location)
        }
        let onceNode = map.optional("once")
        let once = onceNode.map { context.bool($0, "'once'") } ?? false
        if once == true, let onceNode, commands[command]?.changesDevice == true {
            context.error("'once' is for a question asked before the update (a version): command '\(command)' changes "
                          + "the device", at: onceNode.location)
        }
        guard let alias, let timeout, let retries, let optional, let reboots, let verifies, let once else { return nil }
        var step = SendStep(command: command, alias: alias, timeout: timeout, retries: retries, expect: expect)
        step.optional = optional
        step.verifies = verifies
        step.once = once
        step.reboots = reboots ?? nil
        return .send(step)
    }

    private func decodeConditional(_ value: ProfileNode, _ map: MappingReader) -> Step.Kind? {
        let condition = context.expression(value, "'if'")
        let then = map.required("then", context).map { decodeSteps($0, "'then'") } ?? []
        let otherwise = map.optional("else").map { decodeSteps($0, "'else'") } ?? []
        guard let condition else { return nil }
        return .conditional(condition: condition, then: then, otherwise: otherwise)
    }

    private func decodeSet(_ value: ProfileNode) -> Step.Kind? {
        guard let all = context.namedEntries(value, "'set'") else { return nil }
        if all.entries.isEmpty {
            context.error("'set' must bind at least one variable ({ name: expression })", at: value.location)
            return nil
        }
        var bindings: [(name: String, value: Expression)] = []
        for entry in all.entries {
            guard let name = context.identifier(entry.keyNode, "the variable name '\(entry.key)'"),
                  let expression = context.expression(entry.value, "the value of '\(entry.key)'") else { continue }
            bindings.append((name, expression))
        }
        return bindings.count == all.entries.count ? .set(bindings) : nil
    }

    private func decodeChunks(_ value: ProfileNode) -> Step.Kind? {
        guard let map = context.mapping(value, "'chunks'", keys: Self.chunkKeys) else { return nil }
        let data = map.required("data", context).flatMap { context.expression($0, "'data'") }
        let from = context.optional(map.optional("from")) { context.expression($0, "'from'") }
        let size = map.required("size", context).flatMap { context.expression($0, "'size'") }
        let alias = map.optional("as").map { context.identifier($0, "'as'") } ?? "chunk"
        let progress = map.optional("progress").map { context.bool($0, "'progress'") } ?? true
        let aligned = map.optional("aligned").map { context.bool($0, "'aligned'") } ?? false
        let next = context.optional(map.optional("next")) { context.expression($0, "'next'") }
        let window = context.optional(map.optional("window")) { context.expression($0, "'window'") }
        let stepsNode = map.required("steps", context)
        let steps = stepsNode.map { decodeSteps($0, "'steps'") } ?? []
        guard let data, let from, let size, let alias, let progress, let aligned, let next, let window else { return nil }
        if window != nil {
            let single: Bool
            if steps.count == 1, case .send = steps[0].kind { single = true } else { single = false }
            guard single else {
                context.error("a 'chunks' loop with a 'window' must have exactly one step, a 'send' "
                              + "(its requests are pipelined and matched to their answers)",
                              at: stepsNode?.location ?? value.location)
                return nil
            }
        }
        var loop = ChunkLoop(data: data, from: from, size: size, alias: alias, reportsProgress: progress, steps: steps)
        loop.aligned = aligned
        loop.next = next
        loop.window = window
        return .chunks(loop)
    }

    private func decodeStream(_ value: ProfileNode) -> Step.Kind? {
        guard let map = context.mapping(value, "'stream'", keys: Self.streamKeys) else { return nil }
        let data = map.required("data", context).flatMap { context.expression($0, "'data'") }
        let from = context.optional(map.optional("from")) { context.expression($0, "'from'") }
        let to = map.required("to", context).flatMap { node in
            context.string(node, "'to'").flatMap {
                reference($0, at: node, kind: "characteristic", section: "characteristics",
                          known: definedCharacteristics)
            }
        }
        let write = context.optional(map.optional("write")) {
            context.choice($0, "'write'", cases: [CharacteristicSpec.WriteType.withResponse, .withoutResponse])
        }
        let segment = context.optional(map.optional("segment")) { context.expression($0, "'segment'") }
        let progress = map.optional("progress").map { context.bool($0, "'progress'") } ?? true
        let receipts = context.optional(map.optional("receipts"), decodeReceipts)
        guard let data, let from, let to, let write, let segment, let progress, let receipts else { return nil }
        var stream = StreamStep(data: data, from: from, to: to, writeType: write, receipts: receipts,
                                reportsProgress: progress)
        stream.segment = segment
        return .stream(stream)
    }

    private func decodeReceipts(_ node: ProfileNode) -> StreamStep.Receipts? {
        guard let map = context.mapping(node, "'receipts'", keys: Self.receiptKeys) else { return nil }
        let every = map.required("every", context).flatMap { context.expression($0, "'every'") }
        let notification = map.required("notification", context).flatMap { node in
            context.string(node, "'notification'").flatMap {
                reference($0, at: node, kind: "notification", section: "notifications", known: definedNotifications)
            }
        }
        let alias = map.optional("as").map { context.identifier($0, "'as'") } ?? notification
        let expect = map.optional("expect").map { context.expressions($0, "'expect'") } ?? []
        let timeout = context.optional(map.optional("timeout")) { context.duration($0, "'timeout'") }
        guard let every, let notification, let alias, let timeout else { return nil }
        return StreamStep.Receipts(every: every, notification: notification, alias: alias, expect: expect,
                                   timeout: timeout)
    }

    private func decodeAwait(_ value: ProfileNode, _ map: MappingReader) -> Step.Kind? {
        // One notification, or a list of them: the first to come ends the wait.
        let nodes = value.sequence ?? [value]
        guard !nodes.isEmpty else {
            context.error("'await' needs at least one notification", at: value.location)
            return nil
        }
        let names = nodes.compactMap { node in
            context.string(node, "'await'").flatMap {
                reference($0, at: node, kind: "notification", section: "notifications", known: definedNotifications)
            }
        }
        guard names.count == nodes.count, let first = names.first else { return nil }
        if names.count > 1, let asNode = map.optional("as") {
            context.error("'as' names one notification; with several, each is bound under its own name and "
                          + "`awaited` says which came", at: asNode.location)
            return nil
        }
        let alias = map.optional("as").map { context.identifier($0, "'as'") } ?? first
        let timeout = context.optional(map.optional("timeout")) { context.duration($0, "'timeout'") }
        let expect = map.optional("expect").map { context.expressions($0, "'expect'") } ?? []
        guard let alias, let timeout else { return nil }
        var step = AwaitStep(notification: first, alias: alias, timeout: timeout, expect: expect)
        step.alternatives = Array(names.dropFirst())
        return .await(step)
    }

    static let serveKeys = ["request", "done", "until", "block", "size", "data", "as", "timeout", "progress", "steps"]

    private func decodeServe(_ value: ProfileNode) -> Step.Kind? {
        guard let map = context.mapping(value, "'serve'", keys: Self.serveKeys) else { return nil }
        let notification = { (node: ProfileNode, key: String) -> String? in
            self.context.string(node, "'\(key)'").flatMap {
                self.reference($0, at: node, kind: "notification", section: "notifications", known: self.definedNotifications)
            }
        }
        let request = map.required("request", context).flatMap { notification($0, "request") }
        let done = context.optional(map.optional("done")) { notification($0, "done") }
        let until = context.optional(map.optional("until")) { context.expression($0, "'until'") }
        let block = map.required("block", context).flatMap { context.expression($0, "'block'") }
        let size = map.required("size", context).flatMap { context.expression($0, "'size'") }
        let data = map.required("data", context).flatMap { context.expression($0, "'data'") }
        let alias = map.optional("as").map { context.identifier($0, "'as'") } ?? "block"
        let timeout = context.optional(map.optional("timeout")) { context.duration($0, "'timeout'") }
        let progress = map.optional("progress").map { context.bool($0, "'progress'") } ?? true
        let steps = map.required("steps", context).map { decodeSteps($0, "'steps'") } ?? []
        guard let request, let done, let until, let block, let size, let data, let alias, let timeout,
              let progress else { return nil }
        if done == nil, until == nil {
            context.error("'serve' needs 'done' (the notification that ends the transfer) or 'until' (a condition "
                          + "checked after each block)", at: value.location)
            return nil
        }
        return .serve(ServeLoop(request: request, done: done, until: until, block: block, size: size, data: data,
                                alias: alias, timeout: timeout, reportsProgress: progress, steps: steps))
    }

    private func decodeRead(_ value: ProfileNode, _ map: MappingReader) -> Step.Kind? {
        guard let name = context.string(value, "'read'"),
              let characteristic = reference(name, at: value, kind: "characteristic", section: "characteristics",
                                             known: definedCharacteristics)
        else { return nil }
        let alias = map.optional("as").map { context.identifier($0, "'as'") } ?? characteristic
        let expect = map.optional("expect").map { context.expressions($0, "'expect'") } ?? []
        let once = map.optional("once").map { context.bool($0, "'once'") } ?? false
        guard let alias, let once else { return nil }
        var step = ReadStep(characteristic: characteristic, alias: alias, expect: expect)
        step.once = once
        return .read(step)
    }

    /// `observe: WHAT` with `after` (required), `before` and `new`.
    private func decodeObserve(_ value: ProfileNode, _ map: MappingReader) -> Step.Kind? {
        guard let subject = context.string(value, "'observe'") else { return nil }
        if subject.isEmpty {
            context.error("'observe' names what is compared, for reports (e.g. \"the Firmware Revision\"); it is empty",
                          at: value.location)
            return nil
        }
        let after = map.required("after", context).flatMap { context.expression($0, "'after' of 'observe'") }
        let before = context.optional(map.optional("before")) { context.expression($0, "'before' of 'observe'") }
        let new = context.optional(map.optional("new")) { context.expression($0, "'new' of 'observe'") }
        let verifies = map.optional("verifies").map { context.bool($0, "'verifies'") } ?? false
        guard let after, let before, let new, let verifies else { return nil }
        var step = ObserveStep(subject: subject, before: before, after: after, new: new)
        step.verifies = verifies
        return .observe(step)
    }

    private func decodePhase(_ value: ProfileNode, _ map: MappingReader) -> Step.Kind? {
        guard let name = context.string(value, "the name of a 'phase'") else { return nil }
        guard !name.isEmpty, name.unicodeScalars.allSatisfy({
            ExpressionTokenizer.isIdentifierStart($0) || ExpressionTokenizer.isDigit($0) || $0 == "-"
        }) else {
            context.error("the name of a 'phase' must be made of letters, digits, '-' and '_', found '\(name)'",
                          at: value.location)
            return nil
        }
        if definedPhases.contains(name) {
            context.error("a second phase named '\(name)': phase names must be unique (they name what the device "
                          + "completed)", at: value.location)
        }
        definedPhases.append(name)
        let done = context.optional(map.optional("done")) { context.expression($0, "'done' of phase '\(name)'") }
        let achieves = context.optional(map.optional("achieves")) {
            context.choice($0, "'achieves' of phase '\(name)'", FirmwareStage.self)
        }
        let repeatable = map.optional("repeatable").map { context.bool($0, "'repeatable'") } ?? false
        let resumable = map.optional("resumable").map { context.bool($0, "'resumable'") } ?? true
        let lostOnDisconnect = map.optional("lost-on-disconnect").map { context.bool($0, "'lost-on-disconnect'") } ?? false
        let unprovenMessage = context.optional(map.optional("unproven")) { context.string($0, "'unproven' of phase '\(name)'") }
        let unprovenHolds = context.optional(map.optional("unproven-holds")) { node -> [FirmwareStage]? in
            let items = node.sequence ?? [node]
            let stages = items.compactMap { context.choice($0, "'unproven-holds' of phase '\(name)'", FirmwareStage.self) }
            return stages.count == items.count ? stages : nil
        }
        if let achieves = achieves ?? nil, achieves < .unconfirmed,
           let node = map.optional("unproven") ?? map.optional("unproven-holds") {
            context.error("'unproven' is for a phase that has the device run the new image (achieves: unconfirmed or "
                          + "installed); phase '\(name)' achieves \(achieves.rawValue)", at: node.location)
        }
        phaseDepth += 1
        let steps = map.required("steps", context).map { decodeSteps($0, "'steps' of phase '\(name)'") } ?? []
        phaseDepth -= 1
        if phaseDepth > 0 {
            context.error("phase '\(name)' is inside another phase: phases follow one another and do not nest",
                          at: value.location)
        }
        guard let done, let achieves, let repeatable, let resumable, let lostOnDisconnect, let unprovenMessage,
              let unprovenHolds else { return nil }
        var phase = PhaseStep(name: name, done: done, achieves: achieves, repeatable: repeatable, resumable: resumable,
                              steps: steps)
        phase.lostOnDisconnect = lostOnDisconnect
        if unprovenMessage != nil || unprovenHolds != nil {
            phase.unproven = UnprovenOutcome(holds: unprovenHolds ?? [], message: unprovenMessage)
        }
        return .phase(phase)
    }

    private func decodeRetry(_ value: ProfileNode) -> Step.Kind? {
        guard let map = context.mapping(value, "'retry'", keys: ["attempts", "steps"]) else { return nil }
        let attempts = map.required("attempts", context).flatMap { context.int($0, "'attempts'", range: 1...1000) }
        let steps = map.required("steps", context).map { decodeSteps($0, "'steps'") } ?? []
        guard let attempts else { return nil }
        return .retry(attempts: attempts, steps: steps)
    }

    private func decodeReconnect(_ value: ProfileNode) -> Step.Kind? {
        guard let map = context.mapping(value, "'reconnect'", keys: ["address", "timeout"]) else { return nil }
        let address = map.optional("address")
            .map { context.choice($0, "'address'", cases: [ReconnectStep.Address.same, .next]) }
            ?? .same
        let timeout = context.optional(map.optional("timeout")) { context.duration($0, "'timeout'") }
        guard let address, let timeout else { return nil }
        return .reconnect(ReconnectStep(address: address, timeout: timeout))
    }
}
