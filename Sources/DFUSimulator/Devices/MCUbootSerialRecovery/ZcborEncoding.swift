import DFUBytes

/// CBOR as MCUboot's serial recovery writes it: zcbor without `ZCBOR_CANONICAL` (Zephyr's
/// `modules/zcbor/Kconfig` leaves it off), so every map and list has indefinite length: `BF`
/// (map) or `9F` (list), the items, then `FF`. Items themselves are the shortest encodings
/// (`zcbor_encode.c`), as `CBOR.encode` writes them.
enum ZcborEncoding {
    /// An item of a zcbor-encoded answer.
    indirect enum Item: Equatable {
        case value(CBORValue)
        case map([(String, Item)])
        case list([Item])

        static func == (lhs: Item, rhs: Item) -> Bool {
            ZcborEncoding.encode(lhs) == ZcborEncoding.encode(rhs)
        }
    }

    static func encode(_ item: Item) -> [UInt8] {
        switch item {
        case let .value(value):
            return CBOR.encode(value)
        case let .map(entries):
            return [0xBF] + entries.flatMap { CBOR.encode(.text($0.0)) + encode($0.1) } + [0xFF]
        case let .list(items):
            return [0x9F] + items.flatMap(encode) + [0xFF]
        }
    }

    /// `{rc: code}` (`bs_rc_rsp`).
    static func returnCode(_ code: Int) -> [UInt8] {
        encode(.map([("rc", .value(CBORValue(integer: code)))]))
    }
}
