/// What `sim:ti-oad?...` can change (keys `image-id`, `sw-version`, `inactivity-ms`,
/// `corrupt-block`, `bim-crc`, `enable-answer`).
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
    /// `bim-crc=fails`: the off-chip BIM's CRC-32 of the image it copied into internal flash does
    /// not match (bim_offchip_main.c `checkImagesExtFlash`: `crc32 != imgFxdHdr.crc32` marks the
    /// external image `CRC_INVALID` and does not jump to it; `checkImagesIntFlash` then refuses
    /// the copy, whose CRC fails too, and `Bim_revertFactoryImage` copies the factory image
    /// back, the image `OAD_open` saved to external flash (`oadCreateFactoryImageBackup`)). The
    /// transfer ended DL_COMPLETE and enable was answered `04 00`, yet the device boots its
    /// factory image.
    package var bimCRCFails = false
    /// `enable-answer=lost`: oad.c's enable handler calls the application's callback
    /// (`OAD_DL_COMPLETE_EVT`, after which the examples call `SysCtrlSystemReset()`) before it
    /// sends the `04 00` notification; here the reset wins: the answer never goes out, the link
    /// drops without LL terminate, and the new image starts.
    package var enableAnswerLost = false

    /// The defaults of TI's OAD sample application.
    public init() {}
}
