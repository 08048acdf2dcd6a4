import DFUBytes

/// The btsnoop capture format (RFC 1761-style, as written by Android and BlueZ's btmon and read
/// by Wireshark): a 16-byte file header, then one record per packet, all big-endian.
package enum BTSnoopFormat {
    /// "btsnoop\0".
    package static let magic: [UInt8] = Array("btsnoop".utf8) + [0]
    package static let version: UInt32 = 1
    /// Datalink 1002: HCI UART (H4), each packet starts with its H4 indicator.
    package static let datalinkH4: UInt32 = 1002
    /// Microseconds from 0000-01-01 (the format's epoch) to 1970-01-01.
    package static let unixEpochOffset: Int64 = 0x00DC_DDB3_0F2F_8000

    package enum Direction: Sendable, Hashable {
        /// Host to controller.
        case sent
        /// Controller to host.
        case received
    }

    package static var fileHeader: [UInt8] {
        var writer = ByteWriter(capacity: 16)
        writer.append(bytes: magic)
        writer.append(version, endianness: .big)
        writer.append(datalinkH4, endianness: .big)
        return writer.bytes
    }

    /// Packet flags: bit 0 set for controller-to-host, bit 1 set for commands and events.
    package static func flags(for packet: HCIPacket, direction: Direction) -> UInt32 {
        var flags: UInt32 = direction == .received ? 0x01 : 0x00
        if packet.type == .command || packet.type == .event { flags |= 0x02 }
        return flags
    }

    /// One record: original length, included length, flags, cumulative drops, timestamp, data
    /// (the H4 bytes).
    package static func record(for packet: HCIPacket, direction: Direction, unixMicroseconds: Int64) -> [UInt8] {
        let data = packet.h4Bytes
        var writer = ByteWriter(capacity: 24 + data.count)
        writer.append(UInt32(data.count), endianness: .big)
        writer.append(UInt32(data.count), endianness: .big)
        writer.append(flags(for: packet, direction: direction), endianness: .big)
        writer.append(UInt32(0), endianness: .big)
        writer.append(UInt64(bitPattern: unixMicroseconds + unixEpochOffset), endianness: .big)
        writer.append(bytes: data)
        return writer.bytes
    }
}
