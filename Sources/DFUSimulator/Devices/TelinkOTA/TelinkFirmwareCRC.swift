/// The CRC-32 the Telink OTA server computes over an image as it arrives (`crc32_half_cal` in
/// `ota_server.c`, `flash_fw_check.c`): each byte is split into its low and its high nibble and
/// each nibble goes through a 16-entry table of the reflected polynomial 0xEDB88320; the value
/// starts at 0xFFFFFFFF (`fw_crc_default`) and is compared as it is, without a final XOR. Written
/// the SDK's way on purpose (not with zlib, as the package reader does), so that the simulated
/// device checks images by its own arithmetic.
struct TelinkFirmwareCRC: Sendable, Equatable {
    /// `crc32_half_tbl`: entry n is the CRC of the 4-bit value n.
    private static let table: [UInt32] = (0..<16).map { (nibble: UInt32) in
        var value = nibble
        for _ in 0..<4 { value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1 }
        return value
    }

    private(set) var value: UInt32 = 0xFFFF_FFFF

    mutating func update(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            for nibble in [UInt32(byte & 0x0F), UInt32(byte >> 4)] {
                value = (value >> 4) ^ Self.table[Int((value ^ nibble) & 0x0F)]
            }
        }
    }
}
