import DFUBytes
import DFUProfile

/// Builds the bytes of a message from its field specs, evaluating each field's value.
///
/// In a field's value, `message` is the bytes of the fields before it (so a trailing checksum
/// is `crc('CRC-16/XMODEM', message)`); a framing's header, added later, is not part of it. A
/// `bytes` field with a `count` and no value is that many zero bytes. A `cbor` field's map
/// cannot use `message`: the map is encoded as a whole.
package enum MessageEncoder {
    /// Returns the message bytes and its named fields (visible to `match` as `request.x`).
    package static func encode(_ message: MessageSpec, in scope: Scope) throws(EvaluationError) -> (bytes: [UInt8], fields: [String: Value]) {
        var writer = ByteWriter()
        var fields: [String: Value] = [:]
        for field in message.fields {
            if case .cbor = field.type {
                var entries: [CBORMapEntry] = []
                var record: [String: Value] = [:]
                for entry in field.cborMap ?? [] {
                    if let when = entry.when, !(try ExpressionEvaluator.condition(when, in: scope)) { continue }
                    let value = try ExpressionEvaluator.evaluate(entry.value, in: scope)
                    entries.append(CBORMapEntry(.text(entry.key), CBORBridge.cbor(value)))
                    record[entry.key] = value
                }
                writer.append(bytes: CBOR.encode(.map(entries)))
                if let name = field.name { fields[name] = .record(record) }
                continue
            }
            guard let expression = field.value else {
                guard case .bytes(count: let count?) = field.type else {
                    throw EvaluationError(expression: field.name ?? "?", location: field.location,
                                          message: "the request field has no value to send")
                }
                let padding = [UInt8](repeating: 0, count: count)
                writer.append(bytes: padding)
                if let name = field.name { fields[name] = .bytes(padding) }
                continue
            }
            var fieldScope = scope
            if expression.node.mentions(root: Expression.messageName) {
                fieldScope[Expression.messageName] = .bytes(writer.bytes)
            }
            let value = try ExpressionEvaluator.evaluate(expression, in: fieldScope)
            switch (field.type, value) {
            case let (.unsigned(width, endianness), .integer(number)):
                guard width == 8 || number < (UInt64(1) << (8 * UInt64(width))) else {
                    throw EvaluationError(expression: expression.text, location: expression.location,
                                          message: "\(number) does not fit in \(width) byte(s)")
                }
                writer.append(number, width: width, endianness: endianness)
            case let (.unsigned(width, endianness), .boolean(flag)):
                writer.append(flag ? 1 : 0, width: width, endianness: endianness)
            case let (.bytes(count), .bytes(bytes)):
                if let count, count != bytes.count {
                    throw EvaluationError(expression: expression.text, location: expression.location,
                                          message: "the field holds \(count) bytes but the value has \(bytes.count)")
                }
                writer.append(bytes: bytes)
            case let (.bytes(_), .string(text)):
                writer.append(bytes: Array(text.utf8))
            default:
                throw EvaluationError(expression: expression.text, location: expression.location,
                                      message: "a \(field.type) field cannot hold \(value.typeName) \(value)")
            }
            if let name = field.name { fields[name] = value }
        }
        return (writer.bytes, fields)
    }
}
