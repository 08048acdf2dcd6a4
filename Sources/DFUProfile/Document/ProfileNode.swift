/// A node of a parsed profile document (YAML or JSON), before it is given meaning: a scalar,
/// a sequence, or a mapping whose keys keep the order they were written in.
public struct ProfileNode: Sendable {
    /// How a scalar was written. Plain scalars can be integers, booleans and null; quoted ones
    /// are always text (a field `value` that is quoted is an expression, never a literal).
    public enum ScalarStyle: Sendable, Hashable {
        /// Written without quotes: may read as an integer, a boolean or null.
        case plain
        /// Written in single quotes: always text.
        case singleQuoted
        /// Written in double quotes: always text, with escapes.
        case doubleQuoted
        /// A `|` block.
        case literal
        /// A `>` block.
        case folded

        package var isPlain: Bool { self == .plain }
    }

    /// One `key: value` pair of a mapping.
    public struct Entry: Sendable {
        /// The key (a scalar in profiles).
        public var key: ProfileNode
        /// The value written for it.
        public var value: ProfileNode

        /// The pair `key: value`.
        public init(key: ProfileNode, value: ProfileNode) {
            self.key = key
            self.value = value
        }
    }

    /// What a node holds.
    public enum Content: Sendable {
        /// A scalar's text and how it was written.
        case scalar(String, ScalarStyle)
        /// A list, in written order.
        case sequence([ProfileNode])
        /// A mapping, its pairs in written order.
        case mapping([Entry])
    }

    package var content: Content
    /// Where the node starts (1-based line and column).
    public var location: SourceLocation
    /// Where the node ends (just after its last character).
    package var endLocation: SourceLocation

    /// A node holding `content`, written from `location` up to `endLocation`.
    public init(content: Content, location: SourceLocation, endLocation: SourceLocation) {
        self.content = content
        self.location = location
        self.endLocation = endLocation
    }

    /// The text of a scalar, nil for collections.
    package var scalar: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }

    /// The items of a sequence, nil for other nodes.
    package var sequence: [ProfileNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    /// The entries of a mapping, nil for other nodes.
    package var mapping: [Entry]? {
        if case .mapping(let entries) = content { return entries }
        return nil
    }

    /// A plain empty scalar, `~` or `null` (a key written with no value).
    package var isNull: Bool {
        guard case .scalar(let text, .plain) = content else { return false }
        return text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL"
    }

    /// "a mapping", "a list", or the scalar quoted, for "found ..." in error messages.
    var kindDescription: String {
        switch content {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar(let text, _): return isNull ? "nothing" : "'\(text)'"
        }
    }
}
