import DFUBytes
import DFUProfile

/// A message's layout as an observer can match it, without the procedure's variables: only
/// constants written as integers (opcodes, group and command ids) must hold; fields whose value
/// is an expression (`image.size`, `sequence`) are read, whatever they hold. A constant the
/// framing overwrites (a header's length field that the profile writes as 0) is read too. An
/// anonymous CBOR field (an SMP request's body) is read as `cbor`, since it is what the message says.
enum ReceivedLayout {
    static let anonymousCBOR = "cbor"

    static func matching(_ message: MessageSpec, framing: LengthHeaderFormat?) -> MessageSpec {
        var layout = message
        var offset: Int? = 0
        let lengthField = framing.flatMap { $0.isLengthOnly ? nil : $0.lengthOffset..<($0.lengthOffset + $0.lengthWidth) }
        for index in layout.fields.indices {
            let field = layout.fields[index]
            let width = fixedWidth(field.type)
            if field.name == nil, case .cbor = field.type { layout.fields[index].name = anonymousCBOR }
            if let value = field.value, case .integer = value.node {
                if let lengthField, let start = offset, let width, (start..<start + width).overlaps(lengthField) {
                    layout.fields[index].value = nil
                }
            } else {
                layout.fields[index].value = nil
            }
            offset = offset.flatMap { start in width.map { start + $0 } }
        }
        return layout
    }

    /// How many integer constants a message must hold to match: the more, the surer the match.
    static func constantCount(_ layout: MessageSpec) -> Int {
        layout.fields.filter { $0.value != nil }.count
    }

    static func fixedWidth(_ type: FieldSpec.FieldType) -> Int? {
        switch type {
        case let .unsigned(width, _): return width
        case let .bytes(count): return count
        case .cbor: return nil
        }
    }
}
