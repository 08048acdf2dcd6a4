import DFUEngine
import DFUProfile
import Foundation

/// What the profile's expressions read from each command's CBOR answers, so that the generic
/// device's answers hold those keys: `image_list.body.images` read by `has` or `find` is an
/// empty list, `upload.body.off` is 0. Found in the profile file itself (every scalar that
/// parses as an expression, with `send ... as` aliases), so every step kind is covered.
struct CBORReads {
    struct Read: Equatable {
        /// The keys below the CBOR field (`["images"]`).
        var keys: [String]
        /// Read as a list (the first argument of `has` or `find`).
        var list: Bool
    }

    /// By command, then by the name of its response's CBOR field.
    private(set) var reads: [String: [String: [Read]]] = [:]

    init(profile: Profile) {
        guard let text = try? String(contentsOfFile: profile.path, encoding: .utf8),
              let root = try? ProfileDocument.parse(text: text, file: profile.path) else { return }
        var aliases: [String: String] = [:]
        for command in profile.commands.keys { aliases[command] = command }
        var paths: [(components: [String], list: Bool)] = []
        Self.walk(root, aliases: &aliases, paths: &paths)
        for (components, list) in paths where components.count > 2 {
            guard let command = aliases[components[0]], let response = profile.commands[command]?.response,
                  let field = response.message.fields.first(where: { $0.name == components[1] }),
                  case .cbor = field.type else { continue }
            let read = Read(keys: Array(components.dropFirst(2)), list: list)
            var byField = reads[command] ?? [:]
            if !(byField[components[1]] ?? []).contains(read) { byField[components[1], default: []].append(read) }
            reads[command] = byField
        }
    }

    /// A record holding every key read from `command`'s `field`, over `record` (whose values win).
    func record(for command: String, field: String, over record: Value) -> Value {
        var result = record
        for read in (reads[command]?[field] ?? []).sorted(by: { !$0.list && $1.list }) {
            result = Self.setting(read.keys, to: read.list ? .list([]) : .integer(0), in: result, keep: true)
        }
        return result
    }

    /// `record` with `value` at `keys`, creating records on the way; with `keep`, a value
    /// already there stays.
    static func setting(_ keys: [String], to value: Value, in record: Value, keep: Bool = false) -> Value {
        guard let key = keys.first, case var .record(fields) = record else { return record }
        if keys.count == 1 {
            if !keep || fields[key] == nil || fields[key] == .integer(0) { fields[key] = value }
        } else {
            fields[key] = setting(Array(keys.dropFirst()), to: value, in: fields[key] ?? .record([:]), keep: keep)
        }
        return .record(fields)
    }

    private static func walk(_ node: ProfileNode, aliases: inout [String: String],
                             paths: inout [(components: [String], list: Bool)]) {
        switch node.content {
        case let .scalar(text, _):
            if let expression = try? ExpressionParser.parse(text, at: node.location) {
                collect(expression.node, list: false, into: &paths)
            }
        case let .sequence(items):
            for item in items { walk(item, aliases: &aliases, paths: &paths) }
        case let .mapping(entries):
            if let send = entries.first(where: { $0.key.scalar == "send" })?.value.scalar,
               let alias = entries.first(where: { $0.key.scalar == "as" })?.value.scalar {
                aliases[alias] = send
            }
            for entry in entries { walk(entry.value, aliases: &aliases, paths: &paths) }
        }
    }

    private static func collect(_ node: DFUProfile.Expression.Node, list: Bool, into paths: inout [(components: [String], list: Bool)]) {
        switch node {
        case let .path(components): paths.append((components, list))
        case let .call(function, arguments):
            for (index, argument) in arguments.enumerated() {
                collect(argument, list: index == 0 && (function == .has || function == .find), into: &paths)
            }
        case let .unary(_, operand): collect(operand, list: false, into: &paths)
        case let .binary(_, left, right):
            collect(left, list: false, into: &paths)
            collect(right, list: false, into: &paths)
        case .integer, .boolean, .string: break
        }
    }
}
