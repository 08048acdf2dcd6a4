import DFUPackage

/// An image a simulated Nordic bootloader received, checked and activated.
public struct NordicInstalledImage: Equatable, Sendable {
    /// What the image updated: application, SoftDevice, bootloader or both.
    public var type: NordicFirmwareType
    /// The image as received (for SoftDevice + bootloader: both, SoftDevice first).
    public var data: [UInt8]
    /// `fw_version` of the init packet (legacy: `app_version`); nil when absent.
    public var firmwareVersion: UInt32?

    /// An installed image of `type`.
    public init(type: NordicFirmwareType, data: [UInt8], firmwareVersion: UInt32?) {
        self.type = type
        self.data = data
        self.firmwareVersion = firmwareVersion
    }
}
