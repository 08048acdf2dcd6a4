import DFUBytes

/// A legacy (nRF5 SDK <= 11) DFU init packet, as `adafruit-nrfutil dfu genpkg` writes it with
/// `dfu_version` 0.5. All fields little-endian:
/// ```
/// device_type u16, device_rev u16, app_version u32, n u16, sd_req u16 x n, crc16 u16
/// ```
/// `crc16` is the CRC-16/CCITT-FALSE of the `.bin`.
public struct LegacyInitPacket: Sendable, Equatable {
    /// The whole init packet as stored (the `.dat` file).
    public let bytes: [UInt8]
    package let deviceType: UInt16
    package let deviceRevision: UInt16
    package let applicationVersion: UInt32
    /// Accepted SoftDevice firmware IDs (0xFFFE: any / none).
    package let softDeviceRequirements: [UInt16]
    /// CRC-16/CCITT-FALSE of the firmware.
    package let firmwareCRC16: UInt16
    /// Bytes after the CRC (extended packets of later `dfu_version`s); kept, not interpreted.
    package let trailingBytes: [UInt8]

    /// Decodes a legacy `.dat`.
    /// - Throws: `NordicInitPacketError.legacyTooShort` when the bytes end before the CRC.
    public init(decoding bytes: [UInt8]) throws(NordicInitPacketError) {
        guard !bytes.isEmpty else { throw .empty }
        var reader = ByteReader(bytes)
        do {
            deviceType = UInt16(try reader.readUnsigned(width: 2, endianness: .little))
            deviceRevision = UInt16(try reader.readUnsigned(width: 2, endianness: .little))
            applicationVersion = UInt32(try reader.readUnsigned(width: 4, endianness: .little))
            let count = Int(try reader.readUnsigned(width: 2, endianness: .little))
            let needed = 10 + 2 * count + 2
            guard bytes.count >= needed else { throw NordicInitPacketError.legacyTooShort(byteCount: bytes.count, needed: needed) }
            var requirements: [UInt16] = []
            for _ in 0..<count {
                requirements.append(UInt16(try reader.readUnsigned(width: 2, endianness: .little)))
            }
            softDeviceRequirements = requirements
            firmwareCRC16 = UInt16(try reader.readUnsigned(width: 2, endianness: .little))
        } catch let error as NordicInitPacketError {
            throw error
        } catch {
            throw .legacyTooShort(byteCount: bytes.count, needed: max(12, bytes.count + 1))
        }
        trailingBytes = reader.readRemaining()
        self.bytes = bytes
    }

    /// Whether `firmwareCRC16` is the CRC-16/CCITT-FALSE of `firmware`.
    package func crcMatches(firmware: [UInt8]) -> Bool {
        firmwareCRC16 == CRC16CCITTFalse.checksum(firmware)
    }
}
