/// One CBOR data item (RFC 8949) of the kinds SMP and similar protocols use.
///
/// Maps keep their entries in wire order; look keys up with the subscript, which does not
/// care about order. Tags and `undefined` are not modelled: the decoder refuses them.
public indirect enum CBORValue: Sendable, Equatable, CustomStringConvertible {
    /// Major type 0: an unsigned integer.
    case unsigned(UInt64)
    /// Major type 1: a negative integer whose value is `-1 - n`.
    case negative(UInt64)
    /// Major type 2: a byte string.
    case bytes([UInt8])
    /// Major type 3: a UTF-8 text string.
    case text(String)
    /// Major type 4: an array.
    case array([CBORValue])
    /// Major type 5: a map, entries in wire order.
    case map([CBORMapEntry])
    /// Simple values 20 and 21.
    case boolean(Bool)
    /// Simple value 22.
    case null
    /// A half, single or double precision float (encoded in the smallest exact width).
    case float(Double)

    /// The value of the first entry whose key is the text `key`, if this is a map.
    public subscript(key: String) -> CBORValue? {
        guard case let .map(entries) = self else { return nil }
        for entry in entries {
            if case let .text(text) = entry.key, text == key { return entry.value }
        }
        return nil
    }
}

/// One key/value pair of a CBOR map.
public struct CBORMapEntry: Sendable, Equatable {
    /// The entry's key (text or an integer in the maps DFUKit meets).
    public var key: CBORValue
    /// The entry's value.
    public var value: CBORValue

    /// The entry `key: value`.
    public init(_ key: CBORValue, _ value: CBORValue) {
        self.key = key
        self.value = value
    }
}
