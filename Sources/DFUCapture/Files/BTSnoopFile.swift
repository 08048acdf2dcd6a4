import DFUHCI

/// Splits a btsnoop file (a 16-byte header: "btsnoop\0", version 1, datalink; then records of
/// original length, included length, flags, cumulative drops, a 64-bit microsecond timestamp and
/// the packet, all big-endian) into records. The format as Android, BlueZ's btmon and Bumble
/// write it; `BTSnoopFormat` (DFUHCI) is the writer's side.
enum BTSnoopFile {
    static let headerLength = 16
    static let recordHeaderLength = 24

    /// The datalink from the header, or a `CaptureError` when the header is cut short.
    static func datalink(_ bytes: [UInt8], source: String) throws(CaptureError) -> UInt32 {
        guard let version = FileBytes.uint32(bytes, at: 8, bigEndian: true),
              let datalink = FileBytes.uint32(bytes, at: 12, bigEndian: true) else {
            throw CaptureError(.malformedHeader, file: source, offset: bytes.count,
                               detail: "the btsnoop header is \(headerLength) bytes, the file has \(bytes.count)",
                               remedy: "the capture was cut short before its first packet; capture again")
        }
        guard version == BTSnoopFormat.version else {
            throw CaptureError(.malformedHeader, file: source, offset: 8,
                               detail: "btsnoop version \(version), only version 1 is defined",
                               remedy: "check that the file is a btsnoop capture (Wireshark: `capinfos FILE`)")
        }
        return datalink
    }

    /// Every record after the header; a record cut short by the end of the file is kept as far
    /// as it goes and named in a note.
    static func records(_ bytes: [UInt8]) -> CaptureRecords {
        var result = CaptureRecords()
        var offset = headerLength
        var number = 0
        while offset < bytes.count {
            number += 1
            guard let included = FileBytes.uint32(bytes, at: offset + 4, bigEndian: true),
                  let flags = FileBytes.uint32(bytes, at: offset + 8, bigEndian: true),
                  let microseconds = FileBytes.uint64BigEndian(bytes, at: offset + 16) else {
                result.notes.append("record \(number) at byte \(offset) is cut short: the capture ends there "
                                    + "(\(bytes.count - offset) of the record header's \(recordHeaderLength) bytes)")
                break
            }
            let start = offset + recordHeaderLength
            let end = start + Int(included)
            let available = min(end, bytes.count)
            let record = CaptureRecord(number: number, offset: offset,
                                       nanoseconds: Int64(bitPattern: microseconds &* 1000), flags: flags,
                                       bytes: Array(bytes[start..<available]))
            if end > bytes.count {
                result.notes.append("record \(number) at byte \(offset) is cut short: the capture ends there "
                                    + "(\(available - start) of \(included) bytes)")
                result.records.append(record)
                break
            }
            result.records.append(record)
            offset = end
        }
        return result
    }
}
