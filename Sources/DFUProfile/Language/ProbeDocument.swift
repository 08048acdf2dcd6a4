/// A small document built in memory, every node on its own line, decoded with an observer
/// attached: how `ProfileLanguage` asks the loader what it accepts at one place of a profile.
final class ProbeDocument {
    private var line = 0

    func scalar(_ text: String) -> ProfileNode {
        node(.scalar(text, .plain))
    }

    func mapping(_ entries: [(key: String, value: ProfileNode)]) -> ProfileNode {
        node(.mapping(entries.map { ProfileNode.Entry(key: scalar($0.key), value: $0.value) }))
    }

    func sequence(_ items: [ProfileNode]) -> ProfileNode {
        node(.sequence(items))
    }

    private func node(_ content: ProfileNode.Content) -> ProfileNode {
        line += 1
        let location = SourceLocation(file: "<probe>", line: line, column: 1)
        return ProfileNode(content: content, location: location, endLocation: location)
    }

    /// Decodes `root` as a profile (its errors are expected and ignored) and returns what the
    /// decoder asked of each node.
    static func observe(_ root: ProfileNode) -> DecodingObserver {
        let context = DecodingContext(file: "<probe>")
        let observer = DecodingObserver()
        context.observer = observer
        _ = ProfileDecoder(context: context).decode(root)
        return observer
    }
}

/// Where a mapping of the language sits in a profile, as the way down from the top: through
/// keys (with sibling keys the decoder needs to get there, e.g. `type: cbor` before `map`) and
/// list items. `base` are entries of the mapping itself (a step's kind key).
struct ContextPath: Sendable {
    enum Segment: Sendable {
        case member(String, siblings: [Sibling] = [])
        case item
    }

    struct Sibling: Sendable {
        var key: String
        var value: String
    }

    var segments: [Segment]
    var base: [Sibling] = []

    static let top = ContextPath(segments: [])

    static func member(_ keys: String...) -> ContextPath {
        ContextPath(segments: keys.map { .member($0) })
    }

    /// A step of the procedure whose kind is `kind`.
    static func step(_ kind: String) -> ContextPath {
        ContextPath(segments: [.member("procedure"), .item], base: [Sibling(key: kind, value: "probe")])
    }

    /// The mapping a step of kind `kind` takes as its value (`chunks: { ... }`).
    static func stepValue(_ kind: String, then keys: String...) -> ContextPath {
        ContextPath(segments: [.member("procedure"), .item, .member(kind)] + keys.map { .member($0) })
    }

    /// A document with a mapping here holding `base` and `extra` (which replaces a base entry
    /// of the same key); the mapping is `hole`.
    func document(in probe: ProbeDocument, extra: [(key: String, value: ProfileNode)] = [])
        -> (root: ProfileNode, hole: ProfileNode) {
        let kept = base.filter { entry in !extra.contains { $0.key == entry.key } }
        let hole = probe.mapping(kept.map { ($0.key, probe.scalar($0.value)) } + extra)
        var node = hole
        for segment in segments.reversed() {
            switch segment {
            case let .member(key, siblings):
                node = probe.mapping([(key, node)] + siblings.map { ($0.key, probe.scalar($0.value)) })
            case .item:
                node = probe.sequence([node])
            }
        }
        return (node, hole)
    }
}
