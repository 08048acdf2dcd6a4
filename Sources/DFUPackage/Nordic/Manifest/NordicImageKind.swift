/// The keys of an nrfutil `manifest.json` that name an image, in the order the images are sent.
public enum NordicImageKind: String, Sendable, Hashable, CaseIterable {
    /// SoftDevice and bootloader in one image; sent first.
    case softDeviceBootloader = "softdevice_bootloader"
    /// A SoftDevice alone.
    case softDevice = "softdevice"
    /// A bootloader alone.
    case bootloader = "bootloader"
    /// Sent last: it may need the SoftDevice or bootloader sent before it.
    case application = "application"

    /// The `InitCommand.type` an init packet for this image should carry.
    package var firmwareType: NordicFirmwareType {
        switch self {
        case .softDeviceBootloader: return .softDeviceBootloader
        case .softDevice: return .softDevice
        case .bootloader: return .bootloader
        case .application: return .application
        }
    }

    /// Legacy DFU's image type bits in the Start DFU request (SD = 1, BL = 2, app = 4).
    package var legacyImageType: UInt8 {
        switch self {
        case .softDeviceBootloader: return 0x03
        case .softDevice: return 0x01
        case .bootloader: return 0x02
        case .application: return 0x04
        }
    }
}
