import DFUBytes

/// An OTA data packet (`ota_pdu16_t` in the SDK's ota.h): `u16 index | 16 bytes | u16 CRC`,
/// little-endian, 20 bytes. The index is the data's offset / 16; a last packet with less than 16
/// bytes of image is padded with 0xFF; the CRC is the SDK's `crc16()` (reflected 0xA001, init
/// 0xFFFF, no final XOR: CRC-16/MODBUS) of the first 18 bytes.
package struct TelinkOTADataPacket: Sendable, Equatable {
    package static let length = 20
    package static let dataLength = 16
    static let crc = CRCCatalogue.algorithm(named: "CRC-16/MODBUS")!

    package var index: UInt16
    package var data: [UInt8]
    /// The CRC as received.
    package var crc: UInt16

    /// Reads a write of exactly 20 bytes whose first two are a data index (below 0xFF00).
    package init?(bytes: [UInt8]) {
        guard bytes.count == Self.length else { return nil }
        let index = UInt16(bytes[0]) | UInt16(bytes[1]) << 8
        guard index < TelinkOTACommand.firstCommand else { return nil }
        self.index = index
        self.data = Array(bytes[2..<18])
        self.crc = UInt16(bytes[18]) | UInt16(bytes[19]) << 8
    }

    /// The packet for `data` (up to 16 bytes) at `index`, padded with 0xFF, with its CRC.
    package init(index: UInt16, data: [UInt8]) {
        precondition(data.count <= Self.dataLength, "a Telink OTA packet holds 16 bytes")
        self.index = index
        self.data = data + [UInt8](repeating: 0xFF, count: Self.dataLength - data.count)
        self.crc = 0
        self.crc = computedCRC
    }

    /// The CRC-16/MODBUS of the index and the data.
    package var computedCRC: UInt16 {
        UInt16(Self.crc.checksum([UInt8(index & 0xFF), UInt8(index >> 8)] + data))
    }

    package var crcMatches: Bool { crc == computedCRC }

    package var bytes: [UInt8] {
        [UInt8(index & 0xFF), UInt8(index >> 8)] + data + [UInt8(crc & 0xFF), UInt8(crc >> 8)]
    }
}
