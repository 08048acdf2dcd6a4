/// What the decoder asked of each node while it read a document: the keys a mapping may have,
/// the keys it requires, the names a choice accepts, the range an integer must be in.
///
/// `ProfileLanguage` decodes small probe documents with an observer attached, so the language
/// it describes (for the JSON Schema and the documentation check) is the one the loader reads,
/// not a copy of it. Decoding without an observer records nothing.
final class DecodingObserver {
    struct Record {
        /// The keys `DecodingContext.mapping(_:_:keys:)` accepted at this node.
        var keys: [String]?
        /// The keys `MappingReader.required(_:_:)` asked for at this node, in order.
        var required: [String] = []
        /// The names `DecodingContext.choice` accepted at this node.
        var choices: [String]?
        /// The range `DecodingContext.integer` accepted at this node.
        var range: ClosedRange<UInt64>?
    }

    private(set) var records: [NodePosition: Record] = [:]

    /// A node by where it starts (probe documents give every node its own line).
    struct NodePosition: Hashable {
        var line: Int
        var column: Int

        init(_ location: SourceLocation) {
            line = location.line
            column = location.column
        }
    }

    func record(at location: SourceLocation) -> Record? {
        records[NodePosition(location)]
    }

    func sawMapping(at location: SourceLocation, keys: [String]) {
        records[NodePosition(location), default: Record()].keys = keys
    }

    func sawRequired(_ key: String, at location: SourceLocation) {
        var record = records[NodePosition(location), default: Record()]
        if !record.required.contains(key) { record.required.append(key) }
        records[NodePosition(location)] = record
    }

    func sawChoice(at location: SourceLocation, names: [String]) {
        records[NodePosition(location), default: Record()].choices = names
    }

    func sawInteger(at location: SourceLocation, range: ClosedRange<UInt64>) {
        records[NodePosition(location), default: Record()].range = range
    }
}
