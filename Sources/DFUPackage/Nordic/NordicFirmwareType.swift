/// `InitCommand.type` in dfu-cc.proto (`FwType`): what the image updates. An open set: a value this
/// code does not know is kept and printed by number.
public struct NordicFirmwareType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The `FwType` value.
    public let rawValue: Int32
    /// The type with this value.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `APPLICATION`.
    public static let application = NordicFirmwareType(rawValue: 0)
    /// `SOFTDEVICE`.
    package static let softDevice = NordicFirmwareType(rawValue: 1)
    /// `BOOTLOADER`.
    package static let bootloader = NordicFirmwareType(rawValue: 2)
    /// `SOFTDEVICE_BOOTLOADER`: both in one image.
    package static let softDeviceBootloader = NordicFirmwareType(rawValue: 3)
    /// `EXTERNAL_APPLICATION`.
    package static let externalApplication = NordicFirmwareType(rawValue: 4)

    /// The name in dfu-cc.proto, or `unknown(N)`.
    public var name: String {
        switch self {
        case .application: return "APPLICATION"
        case .softDevice: return "SOFTDEVICE"
        case .bootloader: return "BOOTLOADER"
        case .softDeviceBootloader: return "SOFTDEVICE_BOOTLOADER"
        case .externalApplication: return "EXTERNAL_APPLICATION"
        default: return "unknown(\(rawValue))"
        }
    }

    public var description: String { name }
}
