/// The end command (`ota_end_t` in the SDK's ota.h): `u16 0xFF02 | u16 last index | u16 last
/// index ^ 0xFFFF`, little-endian. Telink's own apps send these 6 bytes (the handbook: "CRC check
/// is not needed for OTA end"); fwupd sends them padded with 0xFF to 18 bytes and a CRC-16, which
/// the server ignores. The server checks the index only when the complement matches.
package struct TelinkOTAEndCommand: Sendable, Equatable {
    package var lastIndex: UInt16
    package var lastIndexComplement: UInt16

    package init(lastIndex: UInt16) {
        self.lastIndex = lastIndex
        self.lastIndexComplement = lastIndex ^ 0xFFFF
    }

    /// Reads a write starting `02 FF` with at least the two index fields.
    package init?(bytes: [UInt8]) {
        guard bytes.count >= 6, UInt16(bytes[0]) | UInt16(bytes[1]) << 8 == TelinkOTACommand.end.rawValue else { return nil }
        lastIndex = UInt16(bytes[2]) | UInt16(bytes[3]) << 8
        lastIndexComplement = UInt16(bytes[4]) | UInt16(bytes[5]) << 8
    }

    /// Whether the complement vouches for the index (`(max ^ xor) == 0xFFFF`).
    package var isConsistent: Bool { lastIndex ^ lastIndexComplement == 0xFFFF }

    package var bytes: [UInt8] {
        [0x02, 0xFF, UInt8(lastIndex & 0xFF), UInt8(lastIndex >> 8),
         UInt8(lastIndexComplement & 0xFF), UInt8(lastIndexComplement >> 8)]
    }
}
