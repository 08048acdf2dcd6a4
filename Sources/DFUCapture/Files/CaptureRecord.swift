/// One record of a capture file, before its packet is interpreted: where it is in the file,
/// when it was captured and the bytes it holds. File readers produce these; decoders read them.
struct CaptureRecord: Sendable, Hashable {
    /// 1-based, in file order.
    var number: Int
    /// Byte offset of the record's header in the file.
    var offset: Int
    /// Capture time in nanoseconds on the file's own clock (only differences matter).
    var nanoseconds: Int64
    /// Per-record flags where the format has them (btsnoop's packet flags), else 0.
    var flags: UInt32
    /// The packet bytes (as many as the file holds).
    var bytes: [UInt8]
}

/// What a file reader got from a file: its records in order and what it could not read.
struct CaptureRecords: Sendable {
    var records: [CaptureRecord] = []
    var notes: [String] = []

    /// The time of `record` from the first record's.
    func time(of record: CaptureRecord) -> Duration {
        guard let first = records.first else { return .zero }
        return .nanoseconds(record.nanoseconds &- first.nanoseconds)
    }
}

/// Big- and little-endian integers read from a byte array at an offset; nil past the end.
/// File headers are read with these rather than `ByteReader` because their byte order is only
/// known after the magic number.
enum FileBytes {
    static func uint32(_ bytes: [UInt8], at offset: Int, bigEndian: Bool) -> UInt32? {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        let slice = bytes[offset..<offset + 4]
        let ordered = bigEndian ? Array(slice) : slice.reversed()
        return ordered.reduce(0) { $0 << 8 | UInt32($1) }
    }

    static func uint64BigEndian(_ bytes: [UInt8], at offset: Int) -> UInt64? {
        guard offset >= 0, offset + 8 <= bytes.count else { return nil }
        return bytes[offset..<offset + 8].reduce(0) { $0 << 8 | UInt64($1) }
    }

    static func uint16(_ bytes: [UInt8], at offset: Int, bigEndian: Bool) -> UInt16? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        return bigEndian ? UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
            : UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    static func uint16LittleEndian(_ bytes: [UInt8], at offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    /// "62 74 73 6E ..." of the first `count` bytes.
    static func hexPrefix(_ bytes: [UInt8], count: Int = 16) -> String {
        bytes.prefix(count).map { byte in
            let text = String(byte, radix: 16, uppercase: true)
            return byte < 0x10 ? "0" + text : text
        }.joined(separator: " ")
    }
}
