import Foundation
import DFUBytes
import DFUPackage

/// Turns a `ProfileNode` tree into a `Profile`, collecting every problem it can find: unknown
/// keys, wrong types, missing keys, bad values, and names that refer to nothing.
///
/// Sections are read in dependency order (defaults, framings, codes, characteristics,
/// notifications, commands, procedure) whatever their order in the file, so each reference can
/// be checked where it is written. Messages on framed characteristics are checked against their
/// framing's header (see `FramingLayoutChecker`), and expression paths last, against every name
/// the whole profile defines (see `ExpressionScopeChecker`).
final class ProfileDecoder {
    static let topLevelKeys = [
        "profile", "description", "version", "match", "defaults", "framings", "characteristics", "codes",
        "commands", "notifications", "resume", "reboot", "parameters", "signing-key", "security", "packages",
        "links", "procedure",
    ]

    let context: DecodingContext
    var framings: [String: FramingSpec] = [:]
    var codeTables: [String: CodeTable] = [:]
    var characteristics: [CharacteristicSpec] = []
    var notifications: [String: MessageSpec] = [:]
    var commands: [String: CommandSpec] = [:]
    /// Every name defined in its section, even when its definition had errors (so that one
    /// mistake is not reported again at every use).
    var definedCharacteristics: [String] = []
    var definedFramings: [String] = []
    var definedCodeTables: [String] = []
    var definedCommands: [String] = []
    var definedNotifications: [String] = []
    var parameters: [String: ParameterValue] = [:]
    var parameterRules: [String: ParameterRule] = [:]
    /// Phase names seen so far, and how deep inside phases the step being decoded is.
    var definedPhases: [String] = []
    var phaseDepth = 0

    init(context: DecodingContext) {
        self.context = context
    }

    /// Decodes `root`; nil when any error was found (they are in `context.errors`).
    func decode(_ root: ProfileNode) -> Profile? {
        guard root.mapping != nil else {
            context.error("a profile must be a mapping of keys (profile, characteristics, commands, procedure, ...), "
                          + "found \(root.kindDescription)", at: root.location)
            return nil
        }
        guard let top = context.mapping(root, "the profile", keys: Self.topLevelKeys) else { return nil }

        let name = top.required("profile", context).flatMap { context.string($0, "'profile'") }
        let summary = top.optional("description").flatMap { context.string($0, "'description'") }
        var version = ProfileLanguage.version
        if let node = top.optional("version"), let value = context.int(node, "'version'", range: 0...Int(Int32.max)) {
            if value != ProfileLanguage.version {
                context.error("unsupported profile language version \(value); this DFUKit reads version \(ProfileLanguage.version)",
                              at: node.location)
            }
            version = value
        }
        let match = top.optional("match").flatMap(decodeMatch) ?? MatchRules(namePattern: nil, services: [])
        let defaults = top.optional("defaults").flatMap(decodeDefaults) ?? ProfileDefaults()
        context.defaultEndianness = defaults.endianness
        if let node = top.optional("framings") { decodeFramings(node) }
        if let node = top.optional("codes") { decodeCodeTables(node) }
        if let node = top.required("characteristics", context) { decodeCharacteristics(node) }
        if let node = top.optional("notifications") { decodeNotifications(node) }
        let links = top.optional("links").map(decodeLinks) ?? [:]
        if let node = top.required("commands", context) { decodeCommands(node) }
        let resume = top.optional("resume").flatMap(decodeResume) ?? ResumePolicy()
        let reboot = top.optional("reboot").flatMap(decodeRebootTiming) ?? RebootTiming()
        if let node = top.optional("parameters") { decodeParameters(node) }
        var security: String?
        if let node = top.optional("security") {
            let levels = ["low", "medium", "high", "fips"]
            context.observer?.sawChoice(at: node.location, names: levels)
            if let text = context.string(node, "'security'") {
                if levels.contains(text) {
                    security = text
                } else {
                    context.error("'security' must be one of \(levels.joined(separator: ", ")), found '\(text)'",
                                  at: node.location)
                }
            }
        }
        let packageKinds = top.optional("packages").flatMap(decodePackageKinds) ?? []
        var signingKey: String?
        if let node = top.optional("signing-key"), let path = context.string(node, "'signing-key'") {
            let base = (context.file as NSString).deletingLastPathComponent
            signingKey = path.hasPrefix("/") || base.isEmpty ? path : (base as NSString).appendingPathComponent(path)
        }
        var procedure: [Step] = []
        if let node = top.required("procedure", context) {
            procedure = decodeSteps(node, "'procedure'")
            if procedure.isEmpty, node.sequence?.isEmpty ?? node.isNull {
                context.error("'procedure' must list at least one step", at: node.location)
            }
        }
        FramingLayoutChecker(decoder: self).check()
        ExpressionScopeChecker(decoder: self, procedure: procedure).check()

        guard context.errors.isEmpty, let name else { return nil }
        var profile = Profile(name: name, summary: summary, path: context.file, match: match, defaults: defaults,
                              characteristics: characteristics, framings: framings, codeTables: codeTables,
                              commands: commands, notifications: notifications, resume: resume,
                              procedure: procedure)
        profile.version = version
        profile.parameters = parameters
        profile.parameterRules = parameterRules
        profile.signingKey = signingKey
        profile.packageKinds = packageKinds
        profile.security = security
        profile.reboot = reboot
        profile.links = links
        for reference in context.expressionUses.flatMap(\.references)
        where reference.components.count > 1 && reference.components[0] == "image" {
            let member = reference.components[1]
            if profile.imageMembersUsed[member] == nil { profile.imageMembersUsed[member] = reference.location }
        }
        return profile
    }

    // MARK: Sections

    func decodeMatch(_ node: ProfileNode) -> MatchRules? {
        guard let map = context.mapping(node, "'match'", keys: ["name", "services", "manufacturer", "manufacturer-data"])
        else { return nil }
        let pattern = map.optional("name").flatMap { context.string($0, "'match.name'") }
        let services = map.optional("services").flatMap { context.list($0, "'match.services'") }?
            .compactMap { context.uuid($0, "a service of 'match.services'") } ?? []
        var manufacturer: ManufacturerMatch?
        if let node = map.optional("manufacturer"),
           let company = context.integer(node, "'match.manufacturer'", range: 0...0xFFFF) {
            manufacturer = ManufacturerMatch(companyID: UInt16(company))
        }
        if let node = map.optional("manufacturer-data"), let text = context.string(node, "'match.manufacturer-data'") {
            if let bytes = [UInt8](hex: text) {
                if manufacturer == nil {
                    context.error("'match.manufacturer-data' needs 'match.manufacturer' (the company identifier the "
                                  + "data follows)", at: node.location)
                }
                manufacturer?.dataPrefix = bytes
            } else {
                context.error("'match.manufacturer-data' must be hex bytes such as \"01 a2\", found '\(text)'",
                              at: node.location)
            }
        }
        return MatchRules(namePattern: pattern, services: services, manufacturer: manufacturer)
    }

    /// `packages: [nordic-secure, ...]`: the package kinds the profile takes, each a kind
    /// DFUKit reads (`PackageKind.all`).
    func decodePackageKinds(_ node: ProfileNode) -> [String]? {
        guard let items = context.list(node, "'packages'") else { return nil }
        if items.isEmpty {
            context.error("'packages' must name at least one package kind (leave it out to take any kind)", at: node.location)
        }
        let names = PackageKind.all.map(\.name)
        var kinds: [String] = []
        for item in items {
            context.observer?.sawChoice(at: item.location, names: names)
            guard let text = context.string(item, "a kind of 'packages'") else { continue }
            guard names.contains(text) else {
                context.error("unknown package kind '\(text)' (the kinds: \(names.joined(separator: ", ")))"
                              + (KeySuggestion.didYouMean(text, in: names) ?? ""), at: item.location)
                continue
            }
            kinds.append(text)
        }
        return kinds
    }

    func decodeDefaults(_ node: ProfileNode) -> ProfileDefaults? {
        guard let map = context.mapping(node, "'defaults'", keys: ["endian", "timeout", "retries"]) else { return nil }
        var defaults = ProfileDefaults()
        if let value = map.optional("endian").flatMap({ context.choice($0, "'defaults.endian'", Endianness.self) }) {
            defaults.endianness = value
        }
        if let value = map.optional("timeout").flatMap({ context.duration($0, "'defaults.timeout'") }) {
            defaults.timeout = value
        }
        if let value = map.optional("retries").flatMap({ context.int($0, "'defaults.retries'", range: 0...100) }) {
            defaults.retries = value
        }
        return defaults
    }

    /// `parameters: { name: default }`, each an integer or a text, or
    /// `name: { default: D, values: [...], min: M, max: N, reason: TEXT }` for a limited one.
    func decodeParameters(_ node: ProfileNode) {
        guard let all = context.namedEntries(node, "'parameters'") else { return }
        for entry in all.entries {
            guard context.identifier(entry.keyNode, "the parameter name '\(entry.key)'") != nil else { continue }
            if entry.value.mapping != nil {
                decodeLimitedParameter(entry.key, entry.value)
                continue
            }
            guard let value = parameterValue(entry.value, "parameter '\(entry.key)'") else { continue }
            parameters[entry.key] = value
        }
    }

    /// An integer when it starts with a digit, else a text; nil (reported) when null or malformed.
    private func parameterValue(_ node: ProfileNode, _ what: String) -> ParameterValue? {
        guard let text = node.scalar, !node.isNull else {
            context.error("\(what) needs a value (an integer or a text)", at: node.location)
            return nil
        }
        guard text.first?.isNumber == true else { return .text(text) }
        return context.integer(node, what).map { .integer($0) }
    }

    private func decodeLimitedParameter(_ name: String, _ node: ProfileNode) {
        let what = "parameter '\(name)'"
        guard let map = context.mapping(node, what, keys: ["default", "values", "min", "max", "reason"]) else { return }
        guard let defaultNode = map.required("default", context),
              let defaultValue = parameterValue(defaultNode, "the default of \(what)") else { return }
        parameters[name] = defaultValue
        var rule = ParameterRule()
        if let valuesNode = map.optional("values"), let items = context.list(valuesNode, "the values of \(what)") {
            rule.values = items.compactMap { parameterValue($0, "a value of \(what)") }
            if rule.values.isEmpty { context.error("the values of \(what) list none", at: valuesNode.location) }
        }
        rule.minimum = map.optional("min").flatMap { context.integer($0, "the minimum of \(what)") }
        rule.maximum = map.optional("max").flatMap { context.integer($0, "the maximum of \(what)") }
        rule.reason = map.optional("reason")?.scalar
        if !rule.values.isEmpty, rule.minimum != nil || rule.maximum != nil {
            context.error("\(what) gives both values and a range: give one", at: node.location)
        }
        if let low = rule.minimum, let high = rule.maximum, low > high {
            context.error("the minimum of \(what) (\(low)) is above its maximum (\(high))", at: node.location)
        }
        if (rule.minimum != nil || rule.maximum != nil), case .text = defaultValue {
            context.error("\(what) has a range but a text default: a range limits integers", at: defaultNode.location)
        }
        if let problem = rule.problem(with: defaultValue) {
            context.error("the default of \(what) is \(problem)", at: defaultNode.location)
        }
        parameterRules[name] = rule
    }

    func decodeResume(_ node: ProfileNode) -> ResumePolicy? {
        guard let map = context.mapping(node, "'resume'", keys: ["attempts", "reconnect-timeout"]) else { return nil }
        var policy = ResumePolicy()
        if let value = map.optional("attempts").flatMap({ context.int($0, "'resume.attempts'", range: 0...1000) }) {
            policy.attempts = value
        }
        if let value = map.optional("reconnect-timeout")
            .flatMap({ context.duration($0, "'resume.reconnect-timeout'") }) {
            policy.reconnectTimeout = value
        }
        return policy
    }

    func decodeCodeTables(_ node: ProfileNode) {
        guard let all = context.namedEntries(node, "'codes'") else {
            context.failedSections.insert("codes")
            return
        }
        for table in all.entries {
            definedCodeTables.append(table.key)
            let what = "code table '\(table.key)'"
            guard let codes = context.namedEntries(table.value, what) else { continue }
            var entries: [UInt64: CodeTable.Entry] = [:]
            var seen: [UInt64: SourceLocation] = [:]
            for code in codes.entries {
                guard let number = context.integer(code.keyNode, "a code of \(what)") else { continue }
                if let first = seen[number] {
                    context.error("code \(code.key) is listed twice in \(what) (first at line \(first.line))",
                                  at: code.keyNode.location)
                    continue
                }
                seen[number] = code.keyNode.location
                if code.value.scalar != nil, !code.value.isNull {
                    if let name = context.string(code.value, "the name of code \(code.key)") {
                        entries[number] = CodeTable.Entry(name: name, message: nil)
                    }
                    continue
                }
                guard let map = context.mapping(code.value, "code \(code.key) of \(what)",
                                                keys: ["name", "message", "retryable"]),
                      let name = map.required("name", context).flatMap({ context.string($0, "'name'") }) else {
                    continue
                }
                let message = map.optional("message").flatMap { context.string($0, "'message'") }
                let retryable = map.optional("retryable").map { context.bool($0, "'retryable' of code \(code.key)") } ?? true
                entries[number] = CodeTable.Entry(name: name, message: message, retryable: retryable ?? true)
            }
            codeTables[table.key] = CodeTable(name: table.key, entries: entries)
        }
    }

    func decodeCharacteristics(_ node: ProfileNode) {
        guard let all = context.namedEntries(node, "'characteristics'") else {
            context.failedSections.insert("characteristics")
            return
        }
        let keys = ["service", "uuid", "properties", "write", "framing", "segment", "segment-multiple", "subscribe",
                    "optional", "write-interval", "att-errors"]
        for entry in all.entries {
            definedCharacteristics.append(entry.key)
            let what = "characteristic '\(entry.key)'"
            guard let map = context.mapping(entry.value, what, keys: keys) else { continue }
            let service = map.required("service", context).flatMap { context.uuid($0, "'service'") }
            let uuid = map.required("uuid", context).flatMap { context.uuid($0, "'uuid'") }
            var properties = Set<CharacteristicSpec.Property>()
            for item in map.optional("properties").flatMap({ context.list($0, "'properties'") }) ?? [] {
                if let property = context.choice(item, "a property", CharacteristicSpec.Property.self) {
                    properties.insert(property)
                }
            }
            let defaultWrite: CharacteristicSpec.WriteType =
                properties.contains(.writeWithoutResponse) && !properties.contains(.write)
                ? .withoutResponse : .withResponse
            let writeType = map.optional("write")
                .map { context.choice($0, "'write'", cases: [CharacteristicSpec.WriteType.withResponse, .withoutResponse]) }
                ?? defaultWrite
            var framing: String?
            if let framingNode = map.optional("framing"), let name = context.string(framingNode, "'framing'") {
                framing = reference(name, at: framingNode, kind: "framing", section: "framings",
                                    known: definedFramings)
            }
            var segment: CharacteristicSpec.SegmentSize? = .mtu
            if let segmentNode = map.optional("segment"), segmentNode.scalar != "mtu" {
                segment = context.int(segmentNode, "'segment' (mtu or a byte count)", range: 1...512).map { .fixed($0) }
            }
            // true | false | notifications | indications
            var prefersIndications = false
            var subscribe: Bool? = properties.contains(.notify) || properties.contains(.indicate)
            if let node = map.optional("subscribe") {
                switch node.scalar {
                case "notifications"?: subscribe = true
                case "indications"?:
                    subscribe = true
                    prefersIndications = true
                default: subscribe = context.bool(node, "'subscribe' (true, false, notifications or indications)")
                }
            }
            let writeInterval = context.optional(map.optional("write-interval")) { context.duration($0, "'write-interval'") }
            let optional = map.optional("optional").map { context.bool($0, "'optional'") } ?? false
            let multiple = map.optional("segment-multiple").map { context.int($0, "'segment-multiple'", range: 1...64) } ?? 1
            var attErrors: String?
            if let node = map.optional("att-errors"), let name = context.string(node, "'att-errors'") {
                attErrors = reference(name, at: node, kind: "code table", section: "codes", known: definedCodeTables)
            }
            guard let service, let uuid, let writeType, let segment, let subscribe, let optional, let multiple,
                  let writeInterval else { continue }
            var spec = CharacteristicSpec(
                name: entry.key, service: service, uuid: uuid, requiredProperties: properties, writeType: writeType,
                framing: framing, segmentSize: segment, subscribe: subscribe, location: entry.keyNode.location)
            spec.optional = optional
            spec.segmentMultiple = multiple
            spec.prefersIndications = prefersIndications
            spec.writeInterval = writeInterval
            spec.attErrors = attErrors
            characteristics.append(spec)
        }
    }

    func decodeNotifications(_ node: ProfileNode) {
        guard let all = context.namedEntries(node, "'notifications'") else {
            context.failedSections.insert("notifications")
            return
        }
        for entry in all.entries {
            definedNotifications.append(entry.key)
            let what = "notification '\(entry.key)'"
            guard let map = context.mapping(entry.value, what, keys: ["characteristic", "fields", "status", "watch"]) else {
                continue
            }
            let characteristic = characteristicReference(map.required("characteristic", context))
            let fields = map.required("fields", context)
                .flatMap { context.fields($0, "the fields of \(what)", received: true, scope: .general) }
            let status = context.optional(map.optional("status")) {
                decodeStatus($0, what: "'status' of \(what)", fields: fields)
            }
            var watched = false
            if let node = map.optional("watch"), let value = context.bool(node, "'watch' of \(what)") {
                watched = value
                if value, map.optional("status") == nil {
                    context.error("\(what) is watched but has no 'status': a watched notification ends a step only "
                                  + "by a failing status (add 'status: { field: ..., codes: ... }')", at: node.location)
                }
            }
            guard let characteristic, let fields, let status else { continue }
            var message = MessageSpec(name: entry.key, characteristic: characteristic, fields: fields,
                                      location: entry.keyNode.location)
            message.status = status
            message.watched = watched
            notifications[entry.key] = message
        }
    }

    // MARK: References

    /// Checks that `name` is defined in `known`, reporting "unknown KIND 'name'" at `node`.
    func reference(_ name: String, at node: ProfileNode, kind: String, section: String, known: [String]) -> String? {
        guard known.contains(name) || context.failedSections.contains(section) else {
            let hint = KeySuggestion.didYouMean(name, in: known)
                ?? (known.isEmpty ? " (no \(section) are defined)" : " (defined: \(known.joined(separator: ", ")))")
            context.error("unknown \(kind) '\(name)'" + hint, at: node.location)
            return nil
        }
        return name
    }

    func characteristicReference(_ node: ProfileNode?) -> String? {
        guard let node, let name = context.string(node, "'characteristic'") else { return nil }
        return reference(name, at: node, kind: "characteristic", section: "characteristics",
                         known: definedCharacteristics)
    }
}
