/// A value of the SUOTA service status characteristic (SERV_STATUS), one byte notified each
/// time the receiver has something to say. Dialog SDK 6 `suotar.h` "SUOTA Status values" (the
/// DA1468x SDK's `suota_status_t` has the same numbers).
public struct SUOTAStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The status byte as notified.
    public let rawValue: UInt8
    /// The status with this value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// "Value zero must not be used": what the characteristic holds before any status.
    package static let reserved = SUOTAStatus(rawValue: 0x00)
    /// A patch memory device was configured (SPOTA, not image updates).
    package static let serviceStarted = SUOTAStatus(rawValue: 0x01)
    /// A block was stored, or the image ended with its checksum right (CMP_OK).
    package static let completedOK = SUOTAStatus(rawValue: 0x02)
    /// The client ended the service (MEM_DEV 0xFF).
    package static let serviceExit = SUOTAStatus(rawValue: 0x03)
    /// The XOR of every byte received is not 0 at the end.
    package static let crcError = SUOTAStatus(rawValue: 0x04)
    /// PATCH_LEN is 0 or was not written, or a block got more bytes than PATCH_LEN.
    package static let patchLengthError = SUOTAStatus(rawValue: 0x05)
    package static let externalMemoryWriteError = SUOTAStatus(rawValue: 0x06)
    /// A block larger than the 512-byte buffer (SUOTA_OVERALL_PD_SIZE).
    package static let internalMemoryError = SUOTAStatus(rawValue: 0x07)
    package static let invalidMemoryType = SUOTAStatus(rawValue: 0x08)
    package static let applicationError = SUOTAStatus(rawValue: 0x09)
    /// The image transfer started (answer to MEM_DEV with an image memory type).
    public static let imageStarted = SUOTAStatus(rawValue: 0x10)
    package static let invalidImageBank = SUOTAStatus(rawValue: 0x11)
    package static let invalidImageHeader = SUOTAStatus(rawValue: 0x12)
    package static let invalidImageSize = SUOTAStatus(rawValue: 0x13)
    package static let invalidProductHeader = SUOTAStatus(rawValue: 0x14)
    /// The bank the image would go to holds one with the same version and timestamp.
    package static let sameImageError = SUOTAStatus(rawValue: 0x15)
    package static let externalMemoryReadError = SUOTAStatus(rawValue: 0x16)

    public var description: String {
        let names: [UInt8: String] = [
            0x00: "RESERVED", 0x01: "SRV_STARTED", 0x02: "CMP_OK", 0x03: "SRV_EXIT", 0x04: "CRC_ERR",
            0x05: "PATCH_LEN_ERR", 0x06: "EXT_MEM_WRITE_ERR", 0x07: "INT_MEM_ERR", 0x08: "INVAL_MEM_TYPE",
            0x09: "APP_ERROR", 0x10: "IMG_STARTED", 0x11: "INVAL_IMG_BANK", 0x12: "INVAL_IMG_HDR",
            0x13: "INVAL_IMG_SIZE", 0x14: "INVAL_PRODUCT_HDR", 0x15: "SAME_IMG_ERR", 0x16: "EXT_MEM_READ_ERR",
        ]
        return names[rawValue] ?? "status 0x" + String(rawValue, radix: 16, uppercase: true)
    }
}
