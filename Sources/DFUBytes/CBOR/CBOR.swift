/// CBOR (RFC 8949) over libcbor: `encode` builds libcbor items and serializes them, `decode`
/// runs libcbor's streaming decoder and builds `CBORValue`s.
public enum CBOR {
    /// Arrays and maps nested deeper than this are refused by `decode`.
    package static let maximumNestingDepth = 64

    /// Preferred serialization: definite lengths, the smallest integer and length widths,
    /// floats in the smallest width that holds the value exactly; map entries in their order.
    public static func encode(_ value: CBORValue) -> [UInt8] {
        CBOREncoder.encode(value)
    }

    /// Decodes exactly one item. Indefinite-length strings, arrays and maps are accepted
    /// (older MCUmgr servers built on tinycbor send indefinite-length maps); trailing bytes,
    /// truncated or malformed input, tags and `undefined` throw with the byte offset.
    package static func decode(_ bytes: [UInt8]) throws(CBORError) -> CBORValue {
        try CBORDecoder.decode(bytes)
    }
}
