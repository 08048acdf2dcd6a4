/// Just enough of the protobuf wire format (proto2) to write a message such as a Secure DFU init
/// packet: varints, and fields of varint or length-delimited type. The reader is `ProtobufReader`.
public enum ProtobufWriter {
    /// `value` as a protobuf varint: seven bits a byte, least significant first, the top bit set on
    /// every byte but the last.
    public static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        repeat {
            let low = UInt8(value & 0x7F)
            value >>= 7
            bytes.append(value == 0 ? low : low | 0x80)
        } while value != 0
        return bytes
    }

    /// Field `number` of wire type 0 (varint).
    public static func varintField(_ number: UInt64, _ value: UInt64) -> [UInt8] { varint(number << 3) + varint(value) }

    /// Field `number` of wire type 2 (length-delimited: bytes, a nested message, packed values).
    public static func bytesField(_ number: UInt64, _ bytes: [UInt8]) -> [UInt8] {
        varint(number << 3 | 2) + varint(UInt64(bytes.count)) + bytes
    }
}
