import CCBOR

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds a libcbor item tree for a `CBORValue` and serializes it.
enum CBOREncoder {
    typealias Item = UnsafeMutablePointer<cbor_item_t>

    static func encode(_ value: CBORValue) -> [UInt8] {
        var root: Item? = makeItem(value)
        defer { cbor_decref(&root) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var capacity = 0
        let written = cbor_serialize_alloc(root, &buffer, &capacity)
        defer { free(buffer) }
        guard let buffer, written > 0 else {
            fatalError("libcbor could not serialize a \(kindName(value)) (out of memory)")
        }
        return Array(UnsafeBufferPointer(start: buffer, count: written))
    }

    /// A new item with reference count 1, owned by the caller.
    private static func makeItem(_ value: CBORValue) -> Item {
        let item: Item?
        switch value {
        case let .unsigned(number):
            item = unsignedItem(number)
        case let .negative(number):
            item = negativeItem(number)
        case let .bytes(bytes):
            item = bytes.isEmpty
                ? cbor_new_definite_bytestring()
                : bytes.withUnsafeBufferPointer { cbor_build_bytestring($0.baseAddress, $0.count) }
        case let .text(text):
            var utf8 = Array(text.utf8)
            item = utf8.isEmpty
                ? cbor_new_definite_string()
                : utf8.withUnsafeMutableBufferPointer { buffer in
                    buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                        cbor_build_stringn($0, buffer.count)
                    }
                }
        case let .array(elements):
            item = cbor_new_definite_array(elements.count)
            if let item {
                for element in elements {
                    let child = makeItem(element)
                    let pushed = cbor_array_push(item, child)
                    var reference: Item? = child
                    cbor_decref(&reference)  // the array holds its own reference
                    precondition(pushed, "libcbor could not add an array element (out of memory)")
                }
            }
        case let .map(entries):
            item = cbor_new_definite_map(entries.count)
            if let item {
                for entry in entries {
                    let key = makeItem(entry.key)
                    let value = makeItem(entry.value)
                    let added = cbor_map_add(item, cbor_pair(key: key, value: value))
                    var keyReference: Item? = key
                    var valueReference: Item? = value
                    cbor_decref(&keyReference)  // the map holds its own references
                    cbor_decref(&valueReference)
                    precondition(added, "libcbor could not add a map entry (out of memory)")
                }
            }
        case let .boolean(flag):
            item = cbor_build_bool(flag)
        case .null:
            item = cbor_new_null()
        case let .float(number):
            item = floatItem(number)
        }
        guard let item else { fatalError("libcbor could not allocate a \(kindName(value)) (out of memory)") }
        return item
    }

    /// `cbor_build_uint64` always takes 9 bytes: pick the smallest width here.
    private static func unsignedItem(_ number: UInt64) -> Item? {
        if let small = UInt8(exactly: number) { return cbor_build_uint8(small) }
        if let small = UInt16(exactly: number) { return cbor_build_uint16(small) }
        if let small = UInt32(exactly: number) { return cbor_build_uint32(small) }
        return cbor_build_uint64(number)
    }

    private static func negativeItem(_ number: UInt64) -> Item? {
        if let small = UInt8(exactly: number) { return cbor_build_negint8(small) }
        if let small = UInt16(exactly: number) { return cbor_build_negint16(small) }
        if let small = UInt32(exactly: number) { return cbor_build_negint32(small) }
        return cbor_build_negint64(number)
    }

    /// The smallest float width that holds `number` exactly. libcbor's half encoder is exact
    /// for normal halves, zeros, infinities, NaN and subnormal powers of two only, so other
    /// half subnormals go out as singles.
    private static func floatItem(_ number: Double) -> Item? {
        if number.isNaN || number.isInfinite || number == 0 {
            return cbor_build_float2(Float(number))
        }
        let half = Float16(number)
        if Double(half) == number, half.isNormal || Float(number).significandBitPattern == 0 {
            return cbor_build_float2(Float(number))
        }
        let single = Float(number)
        if Double(single) == number {
            return cbor_build_float4(single)
        }
        return cbor_build_float8(number)
    }

    private static func kindName(_ value: CBORValue) -> String {
        switch value {
        case .unsigned, .negative: return "integer"
        case .bytes: return "byte string"
        case .text: return "text string"
        case .array: return "array"
        case .map: return "map"
        case .boolean: return "boolean"
        case .null: return "null"
        case .float: return "float"
        }
    }
}
