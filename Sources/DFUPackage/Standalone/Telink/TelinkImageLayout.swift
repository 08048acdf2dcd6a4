import DFUBytes

/// Where a Telink BLE SDK image (`.bin`) keeps what its OTA server and boot ROM look at, as the
/// SDK's start-up code lays it out (telink_b85m_ble_single_connection_sdk
/// `boot/8278/cstartup_8278.S`: `.org 0x8 .word 0x544c4e4b`, `.org 0x18 .word _bin_size_`) and
/// its OTA server reads it (`ota_server.c` `otaWrite`, `ota_save_data`):
///
/// - offset 8: the vendor mark `KNLT` (u32 0x544C4E4B); the server refuses an image without it
///   (`OTA_FIRMWARE_MARK_ERR`), writes 0xFF there while receiving and 0x4B (the boot ROM's boot
///   mark) once the image checked out;
/// - offset 0x18: the image's size in bytes, u32 little-endian; the server takes the number of
///   packets from it;
/// - with the firmware check (the SDK default): the size is 16n + 4 and the last 4 bytes are the
///   CRC-32/JAMCRC (reflected 0x04C11DB7, init 0xFFFFFFFF, no final XOR: the SDK's nibble-wise
///   `crc32_half_cal`) of everything before them, little-endian.
public enum TelinkImageLayout {
    package static let markOffset = 8
    /// `KNLT`: u32 0x544C4E4B stored little-endian.
    public static let mark: [UInt8] = [0x4B, 0x4E, 0x4C, 0x54]
    package static let sizeOffset = 0x18
    /// Bytes up to the end of the size field: a shorter file has no size for the server.
    package static let headerLength = sizeOffset + 4
    /// Bytes of image data per OTA packet.
    package static let packetDataSize = 16
    /// The trailing CRC-32's length; with the firmware check the size is 16n + this.
    package static let trailerLength = 4

    /// Whether `bytes` has the vendor mark at offset 8.
    package static func hasMark(_ bytes: [UInt8]) -> Bool {
        bytes.count >= markOffset + mark.count && Array(bytes[markOffset..<markOffset + mark.count]) == mark
    }

    /// The size field at 0x18, or nil when the bytes end before it.
    package static func declaredSize(_ bytes: [UInt8]) -> UInt32? {
        guard bytes.count >= headerLength else { return nil }
        var reader = ByteReader(Array(bytes[sizeOffset..<headerLength]))
        return (try? reader.readUnsigned(width: 4, endianness: .little)).map { UInt32($0) }
    }

    /// The CRC-32/JAMCRC of `bytes` (zlib's CRC-32 without its final XOR).
    package static func firmwareCRC(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return ~crc.value
    }

    /// The CRC the image's last 4 bytes hold, little-endian; nil for fewer than 4 bytes.
    public static func trailer(_ bytes: [UInt8]) -> UInt32? {
        guard bytes.count >= trailerLength else { return nil }
        var reader = ByteReader(Array(bytes.suffix(trailerLength)))
        return (try? reader.readUnsigned(width: 4, endianness: .little)).map { UInt32($0) }
    }

    /// An image laid out as the SDK's start-up code and OTA server expect, from `code` (at least
    /// 0x40 bytes; with `trailer`, a multiple of 16): the mark at 8, the size at 0x18,
    /// "FWREV=<version>" and a NUL at 0x20 (the revision DFUKit's simulated and Bumble Telink
    /// devices report once they run it: real images carry no version field), then with
    /// `trailer` the CRC-32/JAMCRC of all that. For tests, fault matrices and benchmarks.
    public static func build(code: [UInt8], version: String, trailer: Bool = true) -> [UInt8] {
        precondition(code.count >= 0x40 && (!trailer || code.count % packetDataSize == 0),
                     "a Telink image with its CRC-32 has a 16n-byte body of at least 64 bytes")
        var bytes = code
        bytes.replaceSubrange(markOffset..<markOffset + mark.count, with: mark)
        let size = code.count + (trailer ? trailerLength : 0)
        bytes.replaceSubrange(sizeOffset..<headerLength, with: (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) })
        let revision = Array("FWREV=\(version)".utf8) + [0]
        bytes.replaceSubrange(0x20..<0x20 + revision.count, with: revision)
        if trailer {
            let crc = firmwareCRC(bytes[...])
            bytes += (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) }
        }
        return bytes
    }

    /// OTA packets the image takes: one per 16 bytes, the last one padded.
    package static func packetCount(size: Int) -> Int {
        (size + packetDataSize - 1) / packetDataSize
    }
}
