import CZlib

/// gzip through zlib: a capture or recording may be stored compressed (`session.dfurec.gz`,
/// Android's `btsnoop_hci.log.gz`); readers inflate it first, `RecordingWriter` writes one when
/// its path ends in `.gz`.
enum Gzip {
    /// The first two bytes of a gzip member (RFC 1952).
    static let magic: [UInt8] = [0x1F, 0x8B]

    /// The inflated bytes of a gzip file (every member), or nil when they are damaged or cut.
    static func inflate(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.starts(with: magic) else { return nil }
        var stream = z_stream()
        // 15 + 16: a window of 2^15 bytes, gzip wrapping only.
        guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var input = bytes
        return input.withUnsafeMutableBufferPointer { source -> [UInt8]? in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(source.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(buffer.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                output += chunk[0..<(chunk.count - Int(stream.avail_out))]
                switch status {
                case Z_STREAM_END:
                    // Another member may follow (a file appended to): go on with it.
                    guard stream.avail_in > 0 else { return output }
                    guard inflateReset(&stream) == Z_OK else { return nil }
                case Z_OK:
                    if stream.avail_in == 0 && stream.avail_out > 0 { return nil }   // cut short
                default:
                    return nil
                }
            }
        }
    }
}
