/// What `sim:ti-oad?...` can change (keys `image-id`, `sw-version`, `inactivity-ms`,
/// `corrupt-block`).
public struct TIOADSettings: Sendable, Equatable {
    /// The device's `OAD_IMG_ID_VAL` (8 characters): images with another imgID are refused at
    /// identify with INVALID_FILE.
    package var imageID = "CC26x2R1"
    /// The running image's `softVer` (4 characters).
    public var softwareVersion = "0001"
    /// `OAD_open`'s inactivity timeout (more than `OAD_MIN_INACTIVITY_TIME`, 4000 ms).
    package var inactivity: Duration = .seconds(10)
    /// Fault: the flash write of this block (0-based) stores a wrong bit, so the device's CRC
    /// check after the last block fails (CRC_ERR).
    package var corruptBlock: Int?

    /// The defaults of TI's OAD sample application.
    public init() {}
}
