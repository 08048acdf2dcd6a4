import DFUProfile

/// Reads a line file (YAML). Every key is documented in the README's "Provisioning lines";
/// unknown keys, wrong types and bad values are reported as `FILE:LINE:COL: error: MESSAGE`.
public enum LineFileLoader {
    static let keys = ["profile", "package", "device", "devices", "count", "min-rssi", "name", "concurrency", "retries",
                       "backoff", "max-backoff", "timeout", "lease", "checks", "skip-done", "skip-installed", "ledger", "station", "audit-key", "operator", "set",
                       "line", "halt-when", "quarantine-after", "when-halted"]

    /// Reads the line file at `path`. Throws every mistake at once, each with its `FILE:LINE:COL`
    /// (an unreadable file, YAML errors, unknown keys, wrong types, bad values).
    public static func load(path: String) throws(ProfileDiagnostics) -> LineConfiguration {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ProfileDiagnostics(ProfileError("cannot read the line file: \(error.localizedDescription)", subject: path))
        }
        return try load(text: text, path: path)
    }

    /// Reads a line file's `text`; `path` is the name its errors give. Throws as `load(path:)`.
    public static func load(text: String, path: String) throws(ProfileDiagnostics) -> LineConfiguration {
        let root = try ProfileDocument.parse(text: text, file: path)
        var errors: [ProfileError] = []
        var line = LineConfiguration()
        guard let entries = root.mapping else {
            throw ProfileDiagnostics(ProfileError("a line file is a mapping of keys (profile, package, device, ...)",
                                                  at: root.location))
        }
        for entry in entries {
            guard let key = entry.key.scalar else { continue }
            let value = entry.value
            line.locations[key] = value.location
            func fail(_ message: String) { errors.append(ProfileError(message, at: value.location)) }
            func text() -> String? {
                guard let scalar = value.scalar, !value.isNull else { fail("'\(key)' must be a text"); return nil }
                return scalar
            }
            func integer(_ range: ClosedRange<Int>) -> Int? {
                guard let scalar = value.scalar, let number = Int(scalar), range.contains(number) else {
                    fail("'\(key)' must be an integer in \(range.lowerBound)...\(range.upperBound)")
                    return nil
                }
                return number
            }
            func duration() -> Duration? {
                guard let scalar = value.scalar, let parsed = ProfileDuration.parse(scalar) else {
                    fail("'\(key)' must be a duration such as 500ms, 2s or 1m")
                    return nil
                }
                return parsed
            }
            switch key {
            case "profile": line.profile = text()
            case "audit-key": line.auditKey = text()
            case "operator": line.operatorName = text()
            case "package": line.package = text()
            case "device":
                // One device string (which may name several radios: bluez:hci0,hci1), or a list of them.
                let items = value.sequence ?? [value]
                line.transports = []
                for item in items {
                    guard let transport = item.scalar, !item.isNull, !transport.isEmpty else {
                        errors.append(ProfileError("'device' must be a device string such as bluez:hci0, or a list of them "
                                                   + "(one per radio)", at: item.location))
                        continue
                    }
                    line.transports.append(transport)
                }
                if items.isEmpty { fail("'device' must not be an empty list") }
            case "devices":
                guard let items = value.sequence else { fail("'devices' must be a list of addresses"); continue }
                for item in items {
                    guard let address = item.scalar, address.split(separator: ":").count == 6 else {
                        errors.append(ProfileError("'\(item.scalar ?? "?")' is not a device address like C0:FF:EE:00:00:01",
                                                   at: item.location))
                        continue
                    }
                    line.addresses.append(address)
                }
            case "count": line.count = integer(1...1_000_000)
            case "min-rssi": line.minimumRSSI = integer(-127...20)
            case "name": line.namePattern = text()
            case "concurrency": line.concurrency = integer(1...64) ?? line.concurrency
            case "retries": line.retries = integer(0...100) ?? line.retries
            case "backoff": line.backoff = duration() ?? line.backoff
            case "max-backoff": line.maximumBackoff = duration() ?? line.maximumBackoff
            case "timeout": line.deviceTimeout = duration() ?? line.deviceTimeout
            case "lease":
                if let lease = duration() {
                    if let problem = LineConfiguration.leaseProblem(lease) { fail("'lease' \(problem)") } else { line.lease = lease }
                }
            case "skip-done":
                guard let scalar = value.scalar, ["true", "false"].contains(scalar) else { fail("'skip-done' must be true or false"); continue }
                line.skipDone = scalar == "true"
            case "ledger": line.ledger = text()
            case "station": line.station = text()
            case "line":
                if let name = text() {
                    if let problem = LineConfiguration.lineNameProblem(name) { fail("'line' \(problem)") } else { line.line = name }
                }
            case "halt-when":
                guard let rule = text() else { continue }
                do {
                    line.haltWhen = try HaltRule(parsing: rule)
                } catch {
                    // The rule's column, from the scalar's first character when it is written plain.
                    var location = value.location
                    if let column = error.column, value.content.isPlainScalar { location.column += column - 1 }
                    errors.append(ProfileError("'halt-when': \(error.message) (the rule is 'failed >= K of last N', "
                                               + "e.g. 'failed >= 3 of last 10')", at: location))
                }
            case "quarantine-after": line.quarantineAfter = integer(1...1000)
            case "when-halted":
                guard let scalar = value.scalar, let choice = WhenHalted(rawValue: scalar) else {
                    fail("'when-halted' must be wait or exit"); continue
                }
                line.whenHalted = choice
            case "set":
                guard let bindings = value.mapping else { fail("'set' must be a mapping of parameter: value"); continue }
                for binding in bindings {
                    guard let name = binding.key.scalar, let setting = binding.value.scalar else {
                        errors.append(ProfileError("'set' maps a parameter name to a value, e.g. { prn: 12 }",
                                                   at: binding.value.location))
                        continue
                    }
                    line.parameters[name] = ParameterValue(parsing: setting)
                    line.locations["set." + name] = binding.key.location
                }
            case "checks":
                guard let items = value.sequence else { fail("'checks' must be a list of { exec: COMMAND, expect: [...] }"); continue }
                for item in items {
                    guard let fields = item.mapping,
                          let exec = fields.first(where: { $0.key.scalar == "exec" })?.value, let command = exec.scalar else {
                        errors.append(ProfileError("a check is { exec: COMMAND, expect: [conditions] }", at: item.location))
                        continue
                    }
                    for field in fields where !["exec", "expect"].contains(field.key.scalar ?? "") {
                        errors.append(ProfileError("unknown key '\(field.key.scalar ?? "?")' in a check (known: exec, expect)",
                                                   at: field.key.location))
                    }
                    var expect: [Expression] = []
                    var references: [[ExpressionPathReference]] = []
                    let conditions = fields.first(where: { $0.key.scalar == "expect" })?.value
                    for condition in conditions.map({ $0.sequence ?? [$0] }) ?? [] {
                        guard let parsed = expression(condition, &errors) else { continue }
                        expect.append(parsed.expression)
                        references.append(parsed.references)
                    }
                    line.checks.append(PostFlashCheck(command: command, expect: expect, location: exec.location,
                                                      references: references))
                }
            case "skip-installed":
                if let rule = skipInstalled(value, &errors) { line.skipInstalled = rule }
            default:
                let hint = nearest(key).map { "; did you mean '\($0)'?" } ?? ""
                errors.append(ProfileError("unknown key '\(key)' in the line file (known: \(keys.joined(separator: ", ")))" + hint,
                                           at: entry.key.location))
            }
        }
        guard errors.isEmpty else { throw ProfileDiagnostics(errors) }
        if line.line == nil { line.line = defaultLineName(path: path) }
        return line
    }

    /// A line file's default line name: its file name without the directory and `.yaml`/`.yml`.
    static func defaultLineName(path: String) -> String {
        var name = path.split(separator: "/").last.map(String.init) ?? path
        for suffix in [".yaml", ".yml"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
        return name.isEmpty ? path : name
    }

    /// `skip-installed: { exec: COMMAND | read: CHARACTERISTIC, installed: CONDITION, version: EXPRESSION }`.
    private static func skipInstalled(_ node: ProfileNode, _ errors: inout [ProfileError]) -> SkipInstalledRule? {
        let shape = "'skip-installed' is { exec: COMMAND or read: CHARACTERISTIC, installed: CONDITION, version: EXPRESSION }"
        guard let fields = node.mapping else {
            errors.append(ProfileError(shape, at: node.location))
            return nil
        }
        func field(_ name: String) -> ProfileNode? { fields.first { $0.key.scalar == name }?.value }
        for entry in fields where !["exec", "read", "installed", "version"].contains(entry.key.scalar ?? "") {
            let hint = KeySuggestion.didYouMean(entry.key.scalar ?? "", in: ["exec", "read", "installed", "version"]) ?? ""
            errors.append(ProfileError("unknown key '\(entry.key.scalar ?? "?")' in 'skip-installed'" + hint
                                       + " (known: exec, read, installed, version)", at: entry.key.location))
        }
        let source: SkipInstalledRule.Source
        let sourceNode: ProfileNode
        switch (field("exec"), field("read")) {
        case (let exec?, nil):
            guard let name = exec.scalar, !exec.isNull else { errors.append(ProfileError(shape, at: exec.location)); return nil }
            (source, sourceNode) = (.command(name), exec)
        case (nil, let read?):
            guard let name = read.scalar, !read.isNull else { errors.append(ProfileError(shape, at: read.location)); return nil }
            (source, sourceNode) = (.characteristic(name), read)
        case (.some, .some):
            errors.append(ProfileError("'skip-installed' takes either 'exec' (a command) or 'read' (a characteristic), not both",
                                       at: node.location))
            return nil
        case (nil, nil):
            errors.append(ProfileError("'skip-installed' needs 'exec: COMMAND' or 'read: CHARACTERISTIC'", at: node.location))
            return nil
        }
        guard let installedNode = field("installed") else {
            errors.append(ProfileError("'skip-installed' needs 'installed: CONDITION' (true when the device runs the target, "
                                       + "e.g. info.sha256 == image.sha256)", at: node.location))
            return nil
        }
        guard let installed = expression(installedNode, &errors) else { return nil }
        var references = installed.references
        var version: Expression?
        if let versionNode = field("version") {
            guard let parsed = expression(versionNode, &errors) else { return nil }
            version = parsed.expression
            references += parsed.references
        }
        return SkipInstalledRule(source: source, installed: installed.expression, version: version,
                                 location: sourceNode.location, references: references)
    }

    /// Parses an expression written as a scalar, with the places of the paths it mentions.
    private static func expression(_ node: ProfileNode, _ errors: inout [ProfileError])
        -> (expression: Expression, references: [ExpressionPathReference])? {
        guard let source = node.scalar, !node.isNull else {
            errors.append(ProfileError("expected an expression (text), e.g. info.sha256 == image.sha256", at: node.location))
            return nil
        }
        do {
            return try ExpressionParser.parseWithReferences(source, at: node.location,
                                                            exactColumns: node.content.isPlainScalar)
        } catch {
            errors.append(error)
            return nil
        }
    }

    private static func nearest(_ key: String) -> String? {
        keys.first { $0.hasPrefix(String(key.prefix(3))) }
    }
}

extension ProfileNode.Content {
    var isPlainScalar: Bool {
        if case let .scalar(_, style) = self { return style.isPlain }
        return false
    }
}
