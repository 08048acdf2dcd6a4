import DFUProfile

/// Whether a condition that held is the device confirming the image: it compares one of the
/// image's checksums with something the device answered. A check over the image alone (a file's
/// own CRC trailer checked before anything is sent) confirms nothing about the device.
struct ImageConfirmation {
    /// The names bound by the device's answers (send and await aliases, receipts, reads) and the
    /// `set` variables computed from them.
    var answerNames: Set<String> = []

    /// The functions whose value over the image's bytes is a checksum of the image.
    static let checksumFunctions: Set<ExpressionFunction> = [
        .crc32, .crc16, .crc, .sha256, .sum, .xor8, .fletcher16, .fletcher32, .adler32,
    ]

    /// Functions that look a value up in a list the device sent (`has(images, 'hash', image.hash)`).
    static let lookupFunctions: Set<ExpressionFunction> = [.has, .find]

    /// `true` when `node` holds an equality (or a lookup) between an image checksum and a
    /// device answer. Negations do not count: `!has(...)` says the device lacks the image.
    func confirms(_ node: Expression.Node) -> Bool {
        switch node {
        case let .binary(.equal, left, right):
            return (Self.isImageChecksum(left) && readsAnswer(right)) || (Self.isImageChecksum(right) && readsAnswer(left))
                || confirms(left) || confirms(right)
        case let .binary(.and, left, right), let .binary(.or, left, right):
            return confirms(left) || confirms(right)
        case let .call(function, arguments):
            if Self.lookupFunctions.contains(function), arguments.contains(where: Self.isImageChecksum),
               arguments.contains(where: readsAnswer) {
                return true
            }
            return arguments.contains(where: confirms)
        default:
            return false
        }
    }

    /// Whether `node` reads something the device answered.
    func readsAnswer(_ node: Expression.Node) -> Bool {
        Self.paths(in: node).contains { answerNames.contains($0[0]) }
    }

    /// `image.crc32`, `image.sha256`, `image.hash`, or a checksum function over `image.data`.
    static func isImageChecksum(_ node: Expression.Node) -> Bool {
        switch node {
        case let .path(path): return [["image", "crc32"], ["image", "sha256"], ["image", "hash"]].contains(path)
        case let .call(function, arguments):
            return checksumFunctions.contains(function) && arguments.contains { paths(in: $0).contains(["image", "data"]) }
        default: return false
        }
    }

    static func paths(in node: Expression.Node) -> [[String]] {
        switch node {
        case let .path(path): return path.isEmpty ? [] : [path]
        case let .call(_, arguments): return arguments.flatMap(paths(in:))
        case let .unary(_, operand): return paths(in: operand)
        case let .binary(_, left, right): return paths(in: left) + paths(in: right)
        default: return []
        }
    }
}
