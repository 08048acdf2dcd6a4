/// An OAD image header's `imgType` (oad_image_header.h `OAD_IMG_TYPE_*`). Open: an unknown
/// value is kept and shown by number.
public struct TIOADImageType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The `imgType` byte.
    public let rawValue: UInt8
    /// The image type with this value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The resident application of on-chip OAD: not upgradeable over the air.
    package static let persistentApplication = TIOADImageType(rawValue: 0)
    /// An application of a split application/stack build.
    public static let application = TIOADImageType(rawValue: 1)
    /// The stack of a split application/stack build.
    public static let stack = TIOADImageType(rawValue: 2)
    /// A split application and stack merged after the build.
    package static let applicationAndStackMerged = TIOADImageType(rawValue: 3)
    package static let networkProcessor = TIOADImageType(rawValue: 4)
    package static let factory = TIOADImageType(rawValue: 5)
    package static let bootImageManager = TIOADImageType(rawValue: 6)
    /// Application and stack library linked as one image (the SDK's BLE examples).
    public static let applicationStackLibrary = TIOADImageType(rawValue: 7)
    /// 64 and up: `OAD_IMG_TYPE_RSVD_BEGIN`.
    package static let reservedStart: UInt8 = 64

    /// Whether oad.c's `oadCheckImageID` refuses it at once: persistent application, BIM,
    /// factory image and the reserved range "are not currently upgradeable".
    package var isRefusedByDevices: Bool {
        [Self.persistentApplication, .factory, .bootImageManager].contains(self) || rawValue >= Self.reservedStart
    }

    public var description: String {
        let names: [UInt8: String] = [
            0: "persistent application", 1: "application", 2: "stack", 3: "application + stack (merged)",
            4: "network processor", 5: "factory image", 6: "boot image manager", 7: "application + stack library",
        ]
        if let name = names[rawValue] { return "\(name) (\(rawValue))" }
        return rawValue >= Self.reservedStart ? "reserved (\(rawValue))" : "unknown (\(rawValue))"
    }
}

/// An OAD header's or segment's wireless technology (`OAD_WIRELESS_TECH_*`): one bit cleared
/// per technology.
package struct TIOADWirelessTechnology: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    package static let ble = TIOADWirelessTechnology(rawValue: 0xFFFE)
    package static let tiMACSubGHz = TIOADWirelessTechnology(rawValue: 0xFFFD)
    package static let tiMAC2_4GHz = TIOADWirelessTechnology(rawValue: 0xFFFB)
    package static let zigbee = TIOADWirelessTechnology(rawValue: 0xFFF7)
    package static let rf4ce = TIOADWirelessTechnology(rawValue: 0xFFEF)
    package static let thread = TIOADWirelessTechnology(rawValue: 0xFFDF)
    package static let easyLink = TIOADWirelessTechnology(rawValue: 0xFFBF)
    package static let mioty = TIOADWirelessTechnology(rawValue: 0xFF7F)
    package static let wbms = TIOADWirelessTechnology(rawValue: 0xFEFF)

    public var description: String {
        let names: [UInt16: String] = [
            0xFFFE: "BLE", 0xFFFD: "TI 15.4 sub-1 GHz", 0xFFFB: "TI 15.4 2.4 GHz", 0xFFF7: "Zigbee",
            0xFFEF: "RF4CE", 0xFFDF: "Thread", 0xFFBF: "EasyLink", 0xFF7F: "MIOTY", 0xFEFF: "WBMS",
        ]
        let hex = "0x" + String(rawValue, radix: 16, uppercase: true)
        return names[rawValue].map { "\($0) (\(hex))" } ?? hex
    }
}
