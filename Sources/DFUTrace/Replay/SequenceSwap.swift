import DFUProfile

/// Puts DFUKit's sequence number into a captured answer in place of the captured client's, so
/// that a response matched by `response.seq == request.seq` still answers DFUKit's request.
struct SequenceSwap {
    /// Where the answer carries the number.
    var offset: Int
    /// The number as the captured client sent it.
    var captured: [UInt8]
    /// The number as DFUKit sent it.
    var now: [UInt8]

    /// The answer with DFUKit's number, when it carries the captured one there.
    func apply(to value: [UInt8]) -> [UInt8] {
        guard value.count >= offset + captured.count, Array(value[offset..<offset + captured.count]) == captured else {
            return value
        }
        var patched = value
        patched.replaceSubrange(offset..<offset + now.count, with: now)
        return patched
    }

    /// The offset and width of the field `label` names (`field 'seq'`), when every field before
    /// it has a fixed width.
    static func fixedOffset(of label: String, in fields: [FieldSpec]) -> (offset: Int, width: Int)? {
        var offset = 0
        for field in fields {
            guard let width = ReceivedLayout.fixedWidth(field.type) else { return nil }
            if let name = field.name, "field '\(name)'" == label { return (offset, width) }
            offset += width
        }
        return nil
    }
}
