import DFUBytes
import DFUEngine
import DFUProfile

/// Checks a written message's checksum fields: a request field whose value is computed from
/// `message` alone (`crc('CRC-16/MODBUS', message)`) is computed again over the bytes before it.
enum ChecksumCheck {
    /// Why the message's checksum does not verify; nil when it does or it has none.
    static func failure(of command: String, _ bytes: [UInt8], _ profile: Profile) -> String? {
        guard let fields = profile.commands[command]?.request.fields else { return nil }
        var offset = 0
        for field in fields {
            guard let width = ReceivedLayout.fixedWidth(field.type), offset + width <= bytes.count else { return nil }
            if let expression = field.value, expression.node.mentions(root: Expression.messageName),
               expression.node.roots == [Expression.messageName],
               case let .unsigned(_, endianness) = field.type {
                var scope = Scope()
                scope[Expression.messageName] = .bytes(Array(bytes[..<offset]))
                var reader = ByteReader(Array(bytes[offset..<offset + width]))
                guard let expected = try? ExpressionEvaluator.integer(expression, in: scope),
                      let held = try? reader.readUnsigned(width: width, endianness: endianness) else { return nil }
                if expected != held {
                    return "field '\(field.name ?? "checksum")' holds 0x\(String(held, radix: 16)); "
                        + "\(expression.text) over the \(offset) bytes before it is 0x\(String(expected, radix: 16))"
                }
            }
            offset += width
        }
        return nil
    }
}
