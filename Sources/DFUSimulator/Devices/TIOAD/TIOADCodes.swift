/// An OAD status (oad.h `OAD_STATUS_CODES`): the identify answer, a block request's
/// `prevBlkStat`, a control command's answer. Open: an unknown code is kept.
public struct TIOADStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The status byte.
    public let rawValue: UInt8
    /// The status with this value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `OAD_SUCCESS`.
    public static let success = TIOADStatus(rawValue: 0)
    /// "Downloaded image CRC doesn't match".
    package static let crcError = TIOADStatus(rawValue: 1)
    package static let flashError = TIOADStatus(rawValue: 2)
    /// "Block Number doesn't match requested."
    package static let bufferOverflow = TIOADStatus(rawValue: 3)
    package static let alreadyStarted = TIOADStatus(rawValue: 4)
    package static let notStarted = TIOADStatus(rawValue: 5)
    package static let downloadNotComplete = TIOADStatus(rawValue: 6)
    package static let noResources = TIOADStatus(rawValue: 7)
    package static let imageTooBig = TIOADStatus(rawValue: 8)
    package static let incompatibleImage = TIOADStatus(rawValue: 9)
    /// "If Invalid image ID received".
    package static let invalidFile = TIOADStatus(rawValue: 10)
    /// "BIM or FW mismatch".
    package static let incompatibleFile = TIOADStatus(rawValue: 11)
    package static let authenticationFailed = TIOADStatus(rawValue: 12)
    package static let extensionNotSupported = TIOADStatus(rawValue: 13)
    /// "OAD image payload download complete" (the CRC matched).
    package static let downloadComplete = TIOADStatus(rawValue: 14)
    package static let notificationsNotEnabled = TIOADStatus(rawValue: 15)
    /// "Image identify timed out, too many failures".
    package static let imageIdentifyTimeout = TIOADStatus(rawValue: 16)
    /// `OAD_EXT_CTRL_CMD_NOT_SUPPORTED`: the whole answer to an unknown control opcode.
    package static let commandNotSupported = TIOADStatus(rawValue: 0xFF)

    public var description: String {
        let names: [UInt8: String] = [
            0: "SUCCESS", 1: "CRC_ERR", 2: "FLASH_ERR", 3: "BUFFER_OFL", 4: "ALREADY_STARTED", 5: "NOT_STARTED",
            6: "DL_NOT_COMPLETE", 7: "NO_RESOURCES", 8: "IMAGE_TOO_BIG", 9: "INCOMPATIBLE_IMAGE", 10: "INVALID_FILE",
            11: "INCOMPATIBLE_FILE", 12: "AUTH_FAIL", 13: "EXT_NOT_SUPPORTED", 14: "DL_COMPLETE",
            15: "CCCD_NOT_ENABLED", 16: "IMG_ID_TIMEOUT", 0xFF: "EXT_CTRL_CMD_NOT_SUPPORTED",
        ]
        return names[rawValue] ?? "status \(rawValue)"
    }
}

/// An extended control opcode (oad.h `OAD_EXT_CTRL_*`), written to FFC5.
package struct TIOADControlOpcode: RawRepresentable, Hashable, Sendable {
    /// The opcode byte.
    public let rawValue: UInt8
    /// The opcode with this value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let getBlockSize = TIOADControlOpcode(rawValue: 0x01)
    package static let imageCount = TIOADControlOpcode(rawValue: 0x02)
    package static let startOAD = TIOADControlOpcode(rawValue: 0x03)
    package static let enableImage = TIOADControlOpcode(rawValue: 0x04)
    package static let cancelOAD = TIOADControlOpcode(rawValue: 0x05)
    package static let disableBlockNotifications = TIOADControlOpcode(rawValue: 0x06)
    package static let getSoftwareVersion = TIOADControlOpcode(rawValue: 0x07)
    package static let getImageStatus = TIOADControlOpcode(rawValue: 0x08)
    package static let getProfileVersion = TIOADControlOpcode(rawValue: 0x09)
    package static let getDeviceType = TIOADControlOpcode(rawValue: 0x10)
    package static let getImageInfo = TIOADControlOpcode(rawValue: 0x11)
    /// The first byte of the device's block request notification (`OAD_EXT_CTRL_BLK_RSP_NOTIF`).
    package static let blockRequest = TIOADControlOpcode(rawValue: 0x12)
    package static let eraseBonds = TIOADControlOpcode(rawValue: 0x13)

    /// The name `disconnect-on` / `disconnect-after-command` takes (the profile's where it has one).
    var commandName: String? {
        let names: [UInt8: String] = [
            0x01: "get_block_size", 0x02: "image_count", 0x03: "start", 0x04: "enable", 0x05: "cancel",
            0x06: "disable_block_notifications", 0x07: "get_sw_version", 0x08: "get_image_status",
            0x09: "get_profile_version", 0x10: "get_device_type", 0x11: "get_image_info", 0x13: "erase_bonds",
        ]
        return names[rawValue]
    }
}
