import DFUBytes

/// What a write to MEM_DEV asks (Dialog SDK 6 `app_suotar.h` memory types and commands,
/// `app_suotar.c` `app_suotar_read_mem`): a u32 little-endian whose top byte is a memory type or
/// a command and whose low 16 bits are the base address, for image types the bank.
package struct SUOTAMemoryDevice: Hashable, Sendable {
    /// Image types (`SUOTAR_IMG_*`) and commands.
    package struct Kind: RawRepresentable, Hashable, Sendable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }

        /// SYSRAM and retention RAM: not for images ("No support for SUOTA for SYSRAM/RETRAM").
        package static let imageSystemRAM = Kind(rawValue: 0x10)
        package static let imageRetentionRAM = Kind(rawValue: 0x11)
        package static let imageI2CEEPROM = Kind(rawValue: 0x12)
        package static let imageSPIFlash = Kind(rawValue: 0x13)
        /// `SUOTAR_MEM_INVAL_DEV`: every value from here up is not a memory type.
        package static let invalid = Kind(rawValue: 0x14)
        /// Reboot once the client disconnects (the device disconnects itself).
        package static let reboot = Kind(rawValue: 0xFD)
        /// End of the image: check the XOR, mark the image valid.
        package static let imageEnd = Kind(rawValue: 0xFE)
        /// Leave the service.
        package static let serviceExit = Kind(rawValue: 0xFF)

        /// The memory types the SDK keeps (`mem_dev_cmd < SUOTAR_MEM_INVAL_DEV`).
        var isMemoryType: Bool { rawValue < Self.invalid.rawValue }
        /// An image goes to external memory (SPI flash or I2C EEPROM).
        var isExternalImage: Bool { self == .imageSPIFlash || self == .imageI2CEEPROM }
    }

    package var kind: Kind
    /// The low 16 bits: the image bank (0: the older image, 1, 2) for image types.
    package var baseAddress: UInt16

    package init(kind: Kind, baseAddress: UInt16 = 0) {
        self.kind = kind
        self.baseAddress = baseAddress
    }

    /// Reads the value as `suotar_task.c` does (`value[3] << 24 | ... | value[0]`); a shorter
    /// write leaves the missing bytes 0.
    package init(decoding bytes: [UInt8]) {
        let padded = Array(bytes.prefix(4)) + [UInt8](repeating: 0, count: max(0, 4 - bytes.count))
        var reader = ByteReader(padded)
        let value = UInt32((try? reader.readUnsigned(width: 4, endianness: .little)) ?? 0)
        self.init(kind: Kind(rawValue: UInt8(value >> 24)), baseAddress: UInt16(value & 0xFFFF))
    }

    /// The four bytes written.
    package var encoded: [UInt8] {
        var writer = ByteWriter(capacity: 4)
        writer.append(UInt32(kind.rawValue) << 24 | UInt32(baseAddress), endianness: .little)
        return writer.bytes
    }
}
