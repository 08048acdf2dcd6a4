/// `MGMT_ERR_*` (Zephyr `mgmt/mcumgr/mgmt/mgmt_defines.h`): the protocol-wide return codes, sent
/// as `{rc: N}` in both protocol versions. Open: any value prints.
package struct MCUmgrReturnCode: RawRepresentable, Sendable, Hashable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }
    package static let ok = Self(rawValue: 0)
    package static let unknown = Self(rawValue: 1)
    package static let noMemory = Self(rawValue: 2)
    package static let invalidArgument = Self(rawValue: 3)
    package static let timeout = Self(rawValue: 4)
    package static let noEntry = Self(rawValue: 5)
    package static let badState = Self(rawValue: 6)
    package static let messageTooLarge = Self(rawValue: 7)
    package static let notSupported = Self(rawValue: 8)
    package static let corrupt = Self(rawValue: 9)
    package static let busy = Self(rawValue: 10)
    package static let accessDenied = Self(rawValue: 11)
    package static let unsupportedTooOld = Self(rawValue: 12)
    package static let unsupportedTooNew = Self(rawValue: 13)
}

/// `IMG_MGMT_ERR_*`: the image group's own codes, sent as `{err: {group: 1, rc: N}}` to SMP v2
/// requests and translated to an `MCUmgrReturnCode` for v1 requests, as Zephyr's
/// `img_mgmt_translate_error_code` does.
package struct ImageManagementReturnCode: RawRepresentable, Sendable, Hashable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }
    package static let unknown = Self(rawValue: 1)
    package static let noImage = Self(rawValue: 3)
    package static let hashNotFound = Self(rawValue: 8)
    package static let noFreeSlot = Self(rawValue: 9)
    package static let invalidOffset = Self(rawValue: 20)
    package static let invalidLength = Self(rawValue: 21)
    package static let invalidImageHeader = Self(rawValue: 22)
    package static let invalidImageHeaderMagic = Self(rawValue: 23)
    package static let invalidHash = Self(rawValue: 24)
    package static let currentVersionIsNewer = Self(rawValue: 27)
    package static let imageAlreadyPending = Self(rawValue: 28)
    package static let imageTooLarge = Self(rawValue: 30)
    package static let dataOverrun = Self(rawValue: 31)
    package static let settingTestToActiveDenied = Self(rawValue: 33)

    /// The v1 code Zephyr sends instead.
    package var legacyCode: MCUmgrReturnCode {
        switch self {
        case .noImage: return .noEntry
        case .noFreeSlot, .currentVersionIsNewer, .imageAlreadyPending: return .badState
        case .invalidOffset, .invalidLength, .invalidImageHeader, .invalidHash: return .invalidArgument
        default: return .unknown
        }
    }
}
