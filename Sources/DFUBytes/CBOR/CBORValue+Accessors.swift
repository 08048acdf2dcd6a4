extension CBORValue {
    /// An integer item of any sign, or `.unsigned` / `.negative` as `Int` permits.
    public init(integer: some BinaryInteger) {
        if integer >= 0 {
            self = .unsigned(UInt64(integer))
        } else {
            // -1 - n == integer  =>  n == -1 - integer == ~integer (two's complement).
            self = .negative(UInt64(~integer))
        }
    }

    /// A map with text keys, in the order given.
    package static func textMap(_ pairs: KeyValuePairs<String, CBORValue>) -> CBORValue {
        .map(pairs.map { CBORMapEntry(.text($0.key), $0.value) })
    }

    /// The integer value if this is an integer item that fits in `Int`.
    package var integerValue: Int? {
        switch self {
        case let .unsigned(value):
            return value <= UInt64(Int.max) ? Int(value) : nil
        case let .negative(value):
            return value <= UInt64(Int.max) ? -1 - Int(value) : nil
        default:
            return nil
        }
    }

    /// The value if this is an unsigned integer.
    package var unsignedValue: UInt64? {
        if case let .unsigned(value) = self { return value }
        return nil
    }

    /// The bytes if this is a byte string.
    package var bytesValue: [UInt8]? {
        if case let .bytes(value) = self { return value }
        return nil
    }

    /// The string if this is a text string.
    package var textValue: String? {
        if case let .text(value) = self { return value }
        return nil
    }

    /// The flag if this is `true` or `false`.
    package var booleanValue: Bool? {
        if case let .boolean(value) = self { return value }
        return nil
    }

    /// The elements if this is an array.
    package var arrayValue: [CBORValue]? {
        if case let .array(value) = self { return value }
        return nil
    }

    /// The entries, in wire order, if this is a map.
    package var mapEntries: [CBORMapEntry]? {
        if case let .map(value) = self { return value }
        return nil
    }
}

extension CBORValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(integerLiteral value: Int64) { self.init(integer: value) }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    public init(floatLiteral value: Double) { self = .float(value) }
    public init(arrayLiteral elements: CBORValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (CBORValue, CBORValue)...) {
        self = .map(elements.map { CBORMapEntry($0.0, $0.1) })
    }
}
