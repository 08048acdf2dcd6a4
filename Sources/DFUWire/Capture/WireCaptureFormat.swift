/// The file a `WireCapture` writes: a classic pcap file (libpcap 2.4, microsecond timestamps,
/// little-endian) of link type LINKTYPE_USER0 (147), one record per chunk a wire sent or
/// received, each record starting with a one-byte direction pseudo-header.
///
/// Why this link type: pcap has no link type for the raw bytes of a serial line (RTAC_SERIAL,
/// 250, is one vendor's capture header; the *_WITH_DIR types, such as PPP_WITH_DIR, 204, carry a
/// direction byte but promise PPP after it). USER0 is the type reserved for private use, and the
/// direction byte follows the *_WITH_DIR convention: 0x00 received by this host, 0x01 sent by
/// this host. tshark and Wireshark read the file as it is (`tshark -r FILE` lists the records);
/// to see the direction and the bytes as fields, map User 0 to the `data` dissector with a
/// 1-byte header: `tshark -r FILE -o 'uat:user_dlts:"User 0 (DLT=147)","data","1","","",""'`
/// (Wireshark: Preferences > Protocols > DLT_USER).
///
/// Layout (all integers little-endian):
///
///     file header, 24 bytes: magic A1B2C3D4, version 2.4, thiszone 0, sigfigs 0,
///                            snaplen 262144, link type 147
///     each record: seconds, microseconds (since 1970-01-01 UTC), captured length, original
///                  length (4 bytes each), then the direction byte and the chunk's bytes
///
/// A chunk longer than a record may carry (262143 bytes) is written as several records.
public enum WireCaptureFormat {
    /// LINKTYPE_USER0.
    public static let linkType: UInt32 = 147
    /// The most a record holds, direction byte included.
    public static let snapshotLength: UInt32 = 262_144
    /// The most bytes of a chunk one record carries.
    public static var maximumChunk: Int { Int(snapshotLength) - 1 }

    /// The 24-byte file header.
    public static var fileHeader: [UInt8] {
        var bytes: [UInt8] = []
        append(0xA1B2_C3D4 as UInt32, to: &bytes)
        append(2 as UInt16, to: &bytes)
        append(4 as UInt16, to: &bytes)
        append(0 as UInt32, to: &bytes)   // thiszone: timestamps are UTC
        append(0 as UInt32, to: &bytes)   // sigfigs
        append(snapshotLength, to: &bytes)
        append(linkType, to: &bytes)
        return bytes
    }

    /// The records of one chunk going `direction` at `time` (since 1970-01-01 UTC).
    public static func records(of chunk: [UInt8], direction: WireCaptureDirection, at time: Duration) -> [UInt8] {
        let (seconds, attoseconds) = time.components
        let microseconds = attoseconds / 1_000_000_000_000
        var bytes: [UInt8] = []
        var start = 0
        repeat {
            let end = min(chunk.count, start + maximumChunk)
            let length = UInt32(end - start + 1)
            append(UInt32(truncatingIfNeeded: seconds), to: &bytes)
            append(UInt32(truncatingIfNeeded: microseconds), to: &bytes)
            append(length, to: &bytes)
            append(length, to: &bytes)
            bytes.append(direction.rawValue)
            bytes += chunk[start..<end]
            start = end
        } while start < chunk.count
        return bytes
    }

    private static func append<Integer: FixedWidthInteger>(_ value: Integer, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }
}

/// Which way a captured chunk went, as the record's first byte says.
public enum WireCaptureDirection: UInt8, Sendable, Hashable {
    /// Received by this host: from the device.
    case received = 0x00
    /// Sent by this host: to the device.
    case sent = 0x01
}
