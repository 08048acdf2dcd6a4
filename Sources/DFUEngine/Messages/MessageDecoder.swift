import DFUBytes
import DFUProfile

/// Reads a message against its field specs. A field with a constant value must hold it for
/// the message to match (that is how a response is told apart by its opcode).
public enum MessageDecoder {
    /// Whether the bytes are this message.
    public enum Outcome: Sendable, Equatable {
        /// They are: the fields by name.
        case matched([String: Value])
        /// Not this message: a constant differs, or the bytes are too short or too long.
        case mismatched(reason: String)
    }

    /// Where a detail byte without a named field is stored (see `StatusSpec.Detail.field`).
    package static let positionalDetailKey = "$detail"

    /// Decodes `bytes`; with a `status`, a message whose status is a failure may end early.
    package static func decode(_ bytes: [UInt8], as message: MessageSpec, in scope: Scope,
                              status: StatusSpec? = nil) throws(EvaluationError) -> Outcome {
        var reader = ByteReader(bytes)
        var fields: [String: Value] = [:]
        for (index, field) in message.fields.enumerated() {
            let value: Value
            let fieldOffset = reader.offset
            switch field.type {
            case let .unsigned(width, endianness):
                guard let number = try? reader.readUnsigned(width: width, endianness: endianness) else {
                    return .mismatched(reason: "\(bytes.count) bytes end before field \(describe(field, index)) at offset \(fieldOffset)")
                }
                value = .integer(number)
            case .cbor:
                do {
                    value = CBORBridge.value(try CBOR.decode(reader.readRemaining()))
                } catch {
                    return .mismatched(reason: "field \(describe(field, index)) at offset \(fieldOffset) is not CBOR: \(error)")
                }
            case let .bytes(count):
                if let count {
                    guard let data = try? reader.readBytes(count: count) else {
                        return .mismatched(reason: "\(bytes.count) bytes end before field \(describe(field, index)) at offset \(fieldOffset)")
                    }
                    value = .bytes(data)
                } else {
                    value = .bytes(reader.readRemaining())
                }
            }
            if let expected = field.value {
                let constant = try ExpressionEvaluator.evaluate(expected, in: scope)
                if constant != value {
                    return .mismatched(reason: "field \(describe(field, index)) at offset \(fieldOffset) is \(value), not \(constant)")
                }
            }
            if let name = field.name { fields[name] = value }
            if let status, field.name == status.field {
                // A failure answer may stop here (or carry only a detail byte).
                if isShortFailure(status, fields), reader.remainingCount <= 1 {
                    if reader.remainingCount == 1 { fields[positionalDetailKey] = .integer(UInt64(bytes[reader.offset])) }
                    return .matched(fields)
                }
            }
        }
        if reader.remainingCount > 0 {
            return .mismatched(reason: "\(reader.remainingCount) unexpected bytes after the last field")
        }
        return .matched(fields)
    }

    private static func isShortFailure(_ status: StatusSpec, _ fields: [String: Value]) -> Bool {
        guard case let .integer(code)? = fields[status.field] else { return false }
        return !status.success.contains(code)
    }

    private static func describe(_ field: FieldSpec, _ index: Int) -> String {
        field.name.map { "'\($0)'" } ?? "#\(index + 1)"
    }
}
