/// A legacy DFU control-point opcode (nRF5 SDK <= 11, `ble_dfu.h` `ble_dfu_procedure_t`).
public struct LegacyDFUOpcode: RawRepresentable, Hashable, Sendable {
    /// The opcode byte.
    public let rawValue: UInt8
    /// The opcode with this value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Start DFU: image type u8; then the three u32 sizes arrive on the packet characteristic.
    package static let startDFU = LegacyDFUOpcode(rawValue: 0x01)
    /// Init parameters: `02 00` starts the init packet (on the packet characteristic), `02 01` ends it.
    package static let initializeParameters = LegacyDFUOpcode(rawValue: 0x02)
    package static let receiveFirmwareImage = LegacyDFUOpcode(rawValue: 0x03)
    package static let validateFirmware = LegacyDFUOpcode(rawValue: 0x04)
    package static let activateAndReset = LegacyDFUOpcode(rawValue: 0x05)
    /// Reset the device without activating an image.
    public static let reset = LegacyDFUOpcode(rawValue: 0x06)
    /// Report the number of image bytes received: answered `10 07 01 <u32>`.
    package static let reportReceivedImageSize = LegacyDFUOpcode(rawValue: 0x07)
    /// Packet receipt notification request: u16 packets (0 turns them off).
    package static let packetReceiptNotificationRequest = LegacyDFUOpcode(rawValue: 0x08)
    /// The first byte of a response: `10 <request opcode> <status>`.
    public static let response = LegacyDFUOpcode(rawValue: 0x10)
    /// The first byte of a packet receipt notification: `11 <bytes received u32>`.
    package static let packetReceiptNotification = LegacyDFUOpcode(rawValue: 0x11)
}

/// A legacy DFU response status (`ble_dfu_resp_val_t`).
public struct LegacyDFUStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The status byte of a response.
    public let rawValue: UInt8
    /// The status with this value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The request succeeded.
    public static let success = LegacyDFUStatus(rawValue: 0x01)
    package static let invalidState = LegacyDFUStatus(rawValue: 0x02)
    package static let notSupported = LegacyDFUStatus(rawValue: 0x03)
    package static let dataSizeExceedsLimit = LegacyDFUStatus(rawValue: 0x04)
    package static let crcError = LegacyDFUStatus(rawValue: 0x05)
    package static let operationFailed = LegacyDFUStatus(rawValue: 0x06)

    public var description: String {
        let names: [UInt8: String] = [
            0x01: "success", 0x02: "invalid state", 0x03: "not supported", 0x04: "data size exceeds limit",
            0x05: "CRC error", 0x06: "operation failed",
        ]
        return names[rawValue] ?? "status 0x" + String(rawValue, radix: 16, uppercase: true)
    }
}

/// The image types of Start DFU (`DFU_UPDATE_SD` 1, `DFU_UPDATE_BL` 2, `DFU_UPDATE_APP` 4).
public struct LegacyDFUImageType: RawRepresentable, Hashable, Sendable {
    /// The image type bits.
    public let rawValue: UInt8
    /// The image type with these bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let softDevice = LegacyDFUImageType(rawValue: 1)
    package static let bootloader = LegacyDFUImageType(rawValue: 2)
    package static let softDeviceBootloader = LegacyDFUImageType(rawValue: 3)
    /// An application image.
    public static let application = LegacyDFUImageType(rawValue: 4)
}
