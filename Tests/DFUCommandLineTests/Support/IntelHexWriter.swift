/// Writes Intel HEX text for the tests, independently of DFUKit's reader: a type 04 record
/// whenever the upper 16 address bits change, 16-byte type 00 records, a type 05 start
/// address and the type 01 end record.
enum IntelHexWriter {
    static func text(_ segments: [(address: UInt32, bytes: [UInt8])], startAddress: UInt32 = 0) -> String {
        var lines: [String] = []
        var upper: UInt32?
        for segment in segments {
            var offset = 0
            while offset < segment.bytes.count {
                let address = segment.address + UInt32(offset)
                if upper != address >> 16 {
                    upper = address >> 16
                    lines.append(record(type: 0x04, address: 0, data: [UInt8(address >> 24), UInt8((address >> 16) & 0xFF)]))
                }
                // Never cross a 64 KiB boundary within one record.
                let room = 0x1_0000 - Int(address & 0xFFFF)
                let count = min(16, segment.bytes.count - offset, room)
                lines.append(record(type: 0x00, address: UInt16(address & 0xFFFF),
                                    data: Array(segment.bytes[offset..<offset + count])))
                offset += count
            }
        }
        lines.append(record(type: 0x05, address: 0, data: [24, 16, 8, 0].map { UInt8((startAddress >> $0) & 0xFF) }))
        lines.append(record(type: 0x01, address: 0, data: []))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The flat image a reader should produce: from the lowest to the highest address, gaps 0xFF.
    static func flatImage(_ segments: [(address: UInt32, bytes: [UInt8])]) -> [UInt8] {
        let low = segments.map(\.address).min() ?? 0
        let high = segments.map { $0.address + UInt32($0.bytes.count) }.max() ?? 0
        var image = [UInt8](repeating: 0xFF, count: Int(high - low))
        for segment in segments {
            let start = Int(segment.address - low)
            image.replaceSubrange(start..<start + segment.bytes.count, with: segment.bytes)
        }
        return image
    }

    static func record(type: UInt8, address: UInt16, data: [UInt8]) -> String {
        let bytes = [UInt8(data.count), UInt8(address >> 8), UInt8(address & 0xFF), type] + data
        let checksum = UInt8(truncatingIfNeeded: 0x100 - Int(bytes.reduce(0) { $0 &+ $1 }))
        return ":" + (bytes + [checksum]).map { hex2($0) }.joined()
    }

    private static func hex2(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
