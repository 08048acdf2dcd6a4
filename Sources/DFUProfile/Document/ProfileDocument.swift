import CYAML

/// Reads a profile file's text into a `ProfileNode` tree with libyaml's event API. JSON is YAML
/// flow syntax, so `.json` profiles go through the same parser.
///
/// Rejected: YAML syntax errors (at libyaml's line and column), duplicate keys in a mapping,
/// aliases (`*name`: write the value again instead), and files holding more than one document.
package enum ProfileDocument {
    /// Parses `text`; `file` names it in diagnostics.
    package static func parse(text: String, file: String) throws(ProfileDiagnostics) -> ProfileNode {
        let result = parseCollectingErrors(text: text, file: file)
        guard result.errors.isEmpty, let root = result.root else {
            throw ProfileDiagnostics(result.errors)
        }
        return root
    }

    /// Parses as far as possible: a tree (when the syntax allowed one) plus every problem seen.
    /// Duplicate keys are reported but kept (the first occurrence wins for lookups).
    static func parseCollectingErrors(text: String, file: String) -> (root: ProfileNode?, errors: [ProfileError]) {
        var builder = DocumentBuilder(file: file)
        let input = Array(text.utf8)
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) == 1 else {
            return (nil, [ProfileError("cannot initialise the YAML parser (out of memory)", subject: file)])
        }
        defer { yaml_parser_delete(parser) }

        // The parser reads `input` lazily: it must stay alive (and unmoved) for the whole loop.
        input.withUnsafeBufferPointer { buffer in
            let empty: [UInt8] = [0]
            empty.withUnsafeBufferPointer { emptyBuffer in
                let start = buffer.count > 0 ? buffer.baseAddress : emptyBuffer.baseAddress
                yaml_parser_set_input_string(parser, start, buffer.count)
                readEvents(parser: parser, into: &builder)
            }
        }
        if builder.root == nil && builder.errors.isEmpty {
            let start = SourceLocation(file: file, line: 1, column: 1)
            builder.errors.append(ProfileError("the profile is empty", at: start))
        }
        return (builder.root, builder.errors)
    }

    private static func readEvents(parser: UnsafeMutablePointer<yaml_parser_t>, into builder: inout DocumentBuilder) {
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(parser, &event) == 1 else {
                builder.errors.append(syntaxError(parser.pointee, file: builder.file))
                return
            }
            defer { yaml_event_delete(&event) }
            let start = builder.location(event.start_mark)
            let end = builder.location(event.end_mark)
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return
            case YAML_DOCUMENT_START_EVENT:
                builder.documents += 1
                if builder.documents > 1 {
                    builder.errors.append(ProfileError(
                        "a profile file holds exactly one YAML document; remove the second '---'", at: start))
                    return
                }
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length),
                                  as: UTF8.self)
                let style: ProfileNode.ScalarStyle
                switch scalar.style {
                case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
                case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
                case YAML_LITERAL_SCALAR_STYLE: style = .literal
                case YAML_FOLDED_SCALAR_STYLE: style = .folded
                default: style = .plain
                }
                builder.add(ProfileNode(content: .scalar(text, style), location: start, endLocation: end))
            case YAML_ALIAS_EVENT:
                builder.errors.append(ProfileError(
                    "YAML aliases ('*name') are not supported in profiles; write the value out again", at: start))
                builder.add(ProfileNode(content: .scalar("", .plain), location: start, endLocation: end))
            case YAML_SEQUENCE_START_EVENT:
                builder.open(.sequence, at: start)
            case YAML_MAPPING_START_EVENT:
                builder.open(.mapping, at: start)
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                builder.close(at: end)
            default:
                break
            }
        }
    }

    private static func syntaxError(_ parser: yaml_parser_t, file: String) -> ProfileError {
        var message = "YAML syntax error: " + (parser.problem.map { String(cString: $0) } ?? "unreadable input")
        if let context = parser.context {
            message += " (\(String(cString: context)) that starts at line \(parser.context_mark.line + 1), "
                + "column \(parser.context_mark.column + 1))"
        }
        let mark = parser.problem_mark
        return ProfileError(message, at: SourceLocation(file: file, line: mark.line + 1, column: mark.column + 1))
    }
}

/// Assembles the tree from start/end events and checks mappings for duplicate keys.
private struct DocumentBuilder {
    enum Kind { case sequence, mapping }

    struct Frame {
        var kind: Kind
        var start: SourceLocation
        var items: [ProfileNode] = []
        var entries: [ProfileNode.Entry] = []
        var pendingKey: ProfileNode?
        var keyLocations: [String: SourceLocation] = [:]
    }

    let file: String
    var root: ProfileNode?
    var errors: [ProfileError] = []
    var documents = 0
    private var stack: [Frame] = []

    init(file: String) {
        self.file = file
    }

    func location(_ mark: yaml_mark_t) -> SourceLocation {
        SourceLocation(file: file, line: mark.line + 1, column: mark.column + 1)
    }

    mutating func open(_ kind: Kind, at start: SourceLocation) {
        stack.append(Frame(kind: kind, start: start))
    }

    mutating func close(at end: SourceLocation) {
        guard let frame = stack.popLast() else { return }
        let content: ProfileNode.Content = frame.kind == .sequence ? .sequence(frame.items) : .mapping(frame.entries)
        add(ProfileNode(content: content, location: frame.start, endLocation: end))
    }

    mutating func add(_ node: ProfileNode) {
        guard !stack.isEmpty else {
            root = node
            return
        }
        let top = stack.count - 1
        switch stack[top].kind {
        case .sequence:
            stack[top].items.append(node)
        case .mapping:
            guard let key = stack[top].pendingKey else {
                if let text = node.scalar {
                    if let first = stack[top].keyLocations[text] {
                        errors.append(ProfileError(
                            "duplicate key '\(text)' (first written at line \(first.line), column \(first.column))",
                            at: node.location))
                    } else {
                        stack[top].keyLocations[text] = node.location
                    }
                }
                stack[top].pendingKey = node
                return
            }
            stack[top].entries.append(ProfileNode.Entry(key: key, value: node))
            stack[top].pendingKey = nil
        }
    }
}
