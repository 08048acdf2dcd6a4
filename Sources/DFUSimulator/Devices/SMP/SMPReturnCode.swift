/// `MGMT_ERR_*` (Zephyr `mgmt/mcumgr/mgmt/mgmt_defines.h`): the protocol-wide return codes, sent
/// as `{rc: N}` in both protocol versions. Open: any value prints.
public struct MCUmgrReturnCode: RawRepresentable, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let ok = Self(rawValue: 0)
    public static let unknown = Self(rawValue: 1)
    public static let noMemory = Self(rawValue: 2)
    public static let invalidArgument = Self(rawValue: 3)
    public static let timeout = Self(rawValue: 4)
    public static let noEntry = Self(rawValue: 5)
    public static let badState = Self(rawValue: 6)
    public static let messageTooLarge = Self(rawValue: 7)
    public static let notSupported = Self(rawValue: 8)
    public static let corrupt = Self(rawValue: 9)
    public static let busy = Self(rawValue: 10)
    public static let accessDenied = Self(rawValue: 11)
    public static let unsupportedTooOld = Self(rawValue: 12)
    public static let unsupportedTooNew = Self(rawValue: 13)
}

/// `IMG_MGMT_ERR_*`: the image group's own codes, sent as `{err: {group: 1, rc: N}}` to SMP v2
/// requests and translated to an `MCUmgrReturnCode` for v1 requests, as Zephyr's
/// `img_mgmt_translate_error_code` does.
public struct ImageManagementReturnCode: RawRepresentable, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let unknown = Self(rawValue: 1)
    public static let noImage = Self(rawValue: 3)
    public static let hashNotFound = Self(rawValue: 8)
    public static let noFreeSlot = Self(rawValue: 9)
    public static let invalidOffset = Self(rawValue: 20)
    public static let invalidLength = Self(rawValue: 21)
    public static let invalidImageHeader = Self(rawValue: 22)
    public static let invalidImageHeaderMagic = Self(rawValue: 23)
    public static let invalidHash = Self(rawValue: 24)
    public static let currentVersionIsNewer = Self(rawValue: 27)
    public static let imageAlreadyPending = Self(rawValue: 28)
    public static let imageTooLarge = Self(rawValue: 30)
    public static let dataOverrun = Self(rawValue: 31)
    public static let settingTestToActiveDenied = Self(rawValue: 33)

    /// The v1 code Zephyr sends instead.
    public var legacyCode: MCUmgrReturnCode {
        switch self {
        case .noImage: return .noEntry
        case .noFreeSlot, .currentVersionIsNewer, .imageAlreadyPending: return .badState
        case .invalidOffset, .invalidLength, .invalidImageHeader, .invalidHash: return .invalidArgument
        default: return .unknown
        }
    }
}
