import DFUBytes

/// An unsigned Nordic init packet (dfu-cc.proto) for a generated application image, so the
/// benchmark can flash images of any size to the simulated bootloader. Field numbers as in
/// protocols.md section 3: Packet{1 Command{1 op_code, 2 InitCommand{1 fw_version,
/// 2 hw_version, 3 sd_req, 4 type, 7 app_size, 8 hash{1 hash_type, 2 hash}}}}.
enum UnsignedInitPacket {
    static func make(for image: [UInt8]) -> [UInt8] {
        let hash = message([varint(1, 3), bytes(2, SHA256.digest(image).reversed())])
        let initCommand = message([
            varint(1, 1), varint(2, 52), bytes(3, encodeVarint(0xFFFE)), varint(4, 0),
            varint(7, UInt64(image.count)), bytes(8, hash),
        ])
        let command = message([varint(1, 1), bytes(2, initCommand)])
        return message([bytes(1, command)])
    }

    private static func message(_ fields: [[UInt8]]) -> [UInt8] { fields.flatMap { $0 } }

    private static func varint(_ number: UInt64, _ value: UInt64) -> [UInt8] {
        encodeVarint(number << 3) + encodeVarint(value)
    }

    private static func bytes(_ number: UInt64, _ value: [UInt8]) -> [UInt8] {
        encodeVarint(number << 3 | 2) + encodeVarint(UInt64(value.count)) + value
    }

    private static func encodeVarint(_ value: UInt64) -> [UInt8] {
        var value = value
        var out: [UInt8] = []
        repeat {
            var byte = UInt8(value & 0x7F)
            value >>= 7
            if value != 0 { byte |= 0x80 }
            out.append(byte)
        } while value != 0
        return out
    }
}
