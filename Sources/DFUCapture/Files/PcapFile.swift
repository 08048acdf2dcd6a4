/// Splits a classic pcap file (libpcap's: a 24-byte header whose magic tells the byte order
/// and the timestamp unit, then per packet seconds, fraction, included length, original length
/// and the packet) into records.
enum PcapFile {
    static let headerLength = 24
    static let recordHeaderLength = 16

    /// Byte order and timestamp unit, from the magic number.
    struct Layout: Sendable, Hashable {
        var bigEndian: Bool
        var nanosecondTimestamps: Bool
    }

    /// The layout the first four bytes announce, or nil when they are no pcap magic.
    static func layout(magic bytes: [UInt8]) -> Layout? {
        guard let value = FileBytes.uint32(bytes, at: 0, bigEndian: true) else { return nil }
        switch value {
        case 0xA1B2_C3D4: return Layout(bigEndian: true, nanosecondTimestamps: false)
        case 0xD4C3_B2A1: return Layout(bigEndian: false, nanosecondTimestamps: false)
        case 0xA1B2_3C4D: return Layout(bigEndian: true, nanosecondTimestamps: true)
        case 0x4D3C_B2A1: return Layout(bigEndian: false, nanosecondTimestamps: true)
        default: return nil
        }
    }

    /// The link type from the header (its low 16 bits; the upper ones carry FCS information).
    static func linkType(_ bytes: [UInt8], layout: Layout, source: String) throws(CaptureError) -> UInt32 {
        guard let field = FileBytes.uint32(bytes, at: 20, bigEndian: layout.bigEndian) else {
            throw CaptureError(.malformedHeader, file: source, offset: bytes.count,
                               detail: "the pcap header is \(headerLength) bytes, the file has \(bytes.count)",
                               remedy: "the capture was cut short before its first packet; capture again")
        }
        return field & 0xFFFF
    }

    /// Every record after the header; one cut short by the end of the file is kept as far as it
    /// goes and named in a note.
    static func records(_ bytes: [UInt8], layout: Layout) -> CaptureRecords {
        var result = CaptureRecords()
        var offset = headerLength
        var number = 0
        while offset < bytes.count {
            number += 1
            guard let seconds = FileBytes.uint32(bytes, at: offset, bigEndian: layout.bigEndian),
                  let fraction = FileBytes.uint32(bytes, at: offset + 4, bigEndian: layout.bigEndian),
                  let included = FileBytes.uint32(bytes, at: offset + 8, bigEndian: layout.bigEndian),
                  FileBytes.uint32(bytes, at: offset + 12, bigEndian: layout.bigEndian) != nil else {
                result.notes.append("record \(number) at byte \(offset) is cut short: the capture ends there "
                                    + "(\(bytes.count - offset) of the record header's \(recordHeaderLength) bytes)")
                break
            }
            let nanoseconds = Int64(seconds) * 1_000_000_000
                + Int64(fraction) * (layout.nanosecondTimestamps ? 1 : 1000)
            let start = offset + recordHeaderLength
            let end = start + Int(included)
            let available = min(end, bytes.count)
            result.records.append(CaptureRecord(number: number, offset: offset, nanoseconds: nanoseconds, flags: 0,
                                                bytes: Array(bytes[start..<available])))
            if end > bytes.count {
                result.notes.append("record \(number) at byte \(offset) is cut short: the capture ends there "
                                    + "(\(available - start) of \(included) bytes)")
                break
            }
            offset = end
        }
        return result
    }
}
