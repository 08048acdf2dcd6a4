/// An OAD status (oad.h `OAD_STATUS_CODES`): the identify answer, a block request's
/// `prevBlkStat`, a control command's answer. Open: an unknown code is kept.
public struct TIOADStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let success = TIOADStatus(rawValue: 0)
    /// "Downloaded image CRC doesn't match".
    public static let crcError = TIOADStatus(rawValue: 1)
    public static let flashError = TIOADStatus(rawValue: 2)
    /// "Block Number doesn't match requested."
    public static let bufferOverflow = TIOADStatus(rawValue: 3)
    public static let alreadyStarted = TIOADStatus(rawValue: 4)
    public static let notStarted = TIOADStatus(rawValue: 5)
    public static let downloadNotComplete = TIOADStatus(rawValue: 6)
    public static let noResources = TIOADStatus(rawValue: 7)
    public static let imageTooBig = TIOADStatus(rawValue: 8)
    public static let incompatibleImage = TIOADStatus(rawValue: 9)
    /// "If Invalid image ID received".
    public static let invalidFile = TIOADStatus(rawValue: 10)
    /// "BIM or FW mismatch".
    public static let incompatibleFile = TIOADStatus(rawValue: 11)
    public static let authenticationFailed = TIOADStatus(rawValue: 12)
    public static let extensionNotSupported = TIOADStatus(rawValue: 13)
    /// "OAD image payload download complete" (the CRC matched).
    public static let downloadComplete = TIOADStatus(rawValue: 14)
    public static let notificationsNotEnabled = TIOADStatus(rawValue: 15)
    /// "Image identify timed out, too many failures".
    public static let imageIdentifyTimeout = TIOADStatus(rawValue: 16)
    /// `OAD_EXT_CTRL_CMD_NOT_SUPPORTED`: the whole answer to an unknown control opcode.
    public static let commandNotSupported = TIOADStatus(rawValue: 0xFF)

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
public struct TIOADControlOpcode: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let getBlockSize = TIOADControlOpcode(rawValue: 0x01)
    public static let imageCount = TIOADControlOpcode(rawValue: 0x02)
    public static let startOAD = TIOADControlOpcode(rawValue: 0x03)
    public static let enableImage = TIOADControlOpcode(rawValue: 0x04)
    public static let cancelOAD = TIOADControlOpcode(rawValue: 0x05)
    public static let disableBlockNotifications = TIOADControlOpcode(rawValue: 0x06)
    public static let getSoftwareVersion = TIOADControlOpcode(rawValue: 0x07)
    public static let getImageStatus = TIOADControlOpcode(rawValue: 0x08)
    public static let getProfileVersion = TIOADControlOpcode(rawValue: 0x09)
    public static let getDeviceType = TIOADControlOpcode(rawValue: 0x10)
    public static let getImageInfo = TIOADControlOpcode(rawValue: 0x11)
    /// The first byte of the device's block request notification (`OAD_EXT_CTRL_BLK_RSP_NOTIF`).
    public static let blockRequest = TIOADControlOpcode(rawValue: 0x12)
    public static let eraseBonds = TIOADControlOpcode(rawValue: 0x13)

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
