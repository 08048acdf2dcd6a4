extension JSONValue: Encodable {
    private struct MemberKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Encodes the tree as it is: objects with their members (in order, for encoders that keep
    /// it), `null` as nil, numbers as `Int64`, `UInt64` or `Double`.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case let .bool(value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case let .integer(value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case let .unsigned(value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case let .number(value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case let .string(value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case let .array(elements):
            var array = encoder.unkeyedContainer()
            for element in elements { try array.encode(element) }
        case let .object(members):
            var object = encoder.container(keyedBy: MemberKey.self)
            for member in members { try object.encode(member.value, forKey: MemberKey(stringValue: member.key)) }
        }
    }
}
