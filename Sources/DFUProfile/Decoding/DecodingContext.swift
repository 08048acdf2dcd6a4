import DFUBytes

/// Where an expression appears, which decides the names it may use.
enum ExpressionScope {
    /// Anywhere in the procedure or a request: `image`, `link`, commands, aliases, variables.
    case general
    /// A response's `match` conditions, which may also use `request.x` and `response.x`.
    case responseMatch(command: String)
    /// The `value` of a request's field, which may also use `message` (the bytes before it).
    case requestField
}

/// An expression's paths, kept for the scope check that runs once everything is decoded.
struct ExpressionUse {
    var references: [ExpressionPathReference]
    var scope: ExpressionScope
}

/// State shared while decoding one profile: the file, the errors collected so far, and the
/// expressions to check once every name is known.
final class DecodingContext {
    let file: String
    private(set) var errors: [ProfileError] = []
    var expressionUses: [ExpressionUse] = []
    /// Names that a step which failed to decode would have defined (its `as`, `set` and
    /// `send` names); expressions may use them without a second error.
    var looselyDefinedNames: Set<String> = []
    /// Sections that failed to decode as a whole; references into them are not checked.
    var failedSections: Set<String> = []
    /// From `defaults.endian`; applies to integer fields without an `le`/`be` suffix.
    var defaultEndianness: Endianness = .little
    /// Records what is asked of each node, for `ProfileLanguage`; nil when loading profiles.
    var observer: DecodingObserver?

    init(file: String) {
        self.file = file
    }

    func error(_ message: String, at location: SourceLocation) {
        errors.append(ProfileError(message, at: location))
    }

    func record(_ error: ProfileError) {
        errors.append(error)
    }

    /// Reports `node` being of the wrong kind: "'what' must be EXPECTED, found FOUND".
    func wrongType(_ node: ProfileNode, _ what: String, expected: String) {
        error("\(what) must be \(expected), found \(node.kindDescription)", at: node.location)
    }

    // MARK: Collections

    /// The items of a list; a single scalar-or-mapping is not accepted. Null reads as empty.
    func list(_ node: ProfileNode, _ what: String) -> [ProfileNode]? {
        if node.isNull { return [] }
        guard let items = node.sequence else {
            wrongType(node, what, expected: "a list")
            return nil
        }
        return items
    }

    /// Reads a mapping whose keys are all known (unknown ones are reported with a suggestion).
    func mapping(_ node: ProfileNode, _ what: String, keys: [String]) -> MappingReader? {
        observer?.sawMapping(at: node.location, keys: keys)
        guard var reader = namedEntries(node, what) else { return nil }
        for entry in reader.entries where !keys.contains(entry.key) {
            let suggestion = KeySuggestion.nearest(to: entry.key, in: keys)
            let hint = suggestion.map { "; did you mean '\($0)'?" } ?? " (known keys: \(keys.joined(separator: ", ")))"
            error("unknown key '\(entry.key)' in \(what)" + hint, at: entry.keyNode.location)
            if let suggestion { reader.misspelled.insert(suggestion) }
        }
        return reader
    }

    /// Reads a mapping whose keys are names chosen by the author (commands, characteristics).
    func namedEntries(_ node: ProfileNode, _ what: String) -> MappingReader? {
        if node.isNull { return MappingReader(node: node, what: what, entries: []) }
        guard let raw = node.mapping else {
            wrongType(node, what, expected: "a mapping (key: value)")
            return nil
        }
        var entries: [MappingReader.Entry] = []
        for entry in raw {
            guard let key = entry.key.scalar else {
                error("keys of \(what) must be plain names, found \(entry.key.kindDescription)", at: entry.key.location)
                continue
            }
            entries.append(MappingReader.Entry(key: key, keyNode: entry.key, value: entry.value))
        }
        return MappingReader(node: node, what: what, entries: entries)
    }
}

/// The entries of one mapping, looked up by key; reports missing required keys.
struct MappingReader {
    struct Entry {
        var key: String
        var keyNode: ProfileNode
        var value: ProfileNode
    }

    let node: ProfileNode
    let what: String
    let entries: [Entry]
    /// Known keys that an unknown key was probably meant to be (already reported).
    var misspelled: Set<String> = []

    /// The value of `key` unless absent or null (the first occurrence when duplicated).
    func optional(_ key: String) -> ProfileNode? {
        guard let value = entries.first(where: { $0.key == key })?.value, !value.isNull else { return nil }
        return value
    }

    /// Whether `key` is written at all (even with no value).
    func contains(_ key: String) -> Bool {
        entries.contains { $0.key == key }
    }

    /// The value of `key`, reporting "missing required key" at the mapping when absent.
    func required(_ key: String, _ context: DecodingContext) -> ProfileNode? {
        context.observer?.sawRequired(key, at: node.location)
        if let value = optional(key) { return value }
        if misspelled.contains(key) { return nil }
        context.error("missing required key '\(key)' in \(what)", at: node.location)
        return nil
    }
}

extension DecodingContext {
    /// Decodes an optional value: `.some(nil)` when absent, `.some(value)` when valid, and nil
    /// when it was written but is wrong (the error is already reported).
    func optional<Value>(_ node: ProfileNode?, _ decode: (ProfileNode) -> Value?) -> Value?? {
        guard let node else { return .some(nil) }
        guard let value = decode(node) else { return nil }
        return .some(value)
    }
}
