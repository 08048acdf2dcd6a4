import DFUBytes

/// `s_dfu_settings.progress` plus the stored init command: what the bootloader knows about the
/// transfer. A value type, so that the copy "written to flash" is a plain snapshot.
struct SecureDFUProgress: Equatable, Sendable {
    /// The init command received so far (`s_dfu_settings.init_command`).
    var command: [UInt8] = []
    /// The size announced by the last CREATE of a command object.
    var commandSize = 0
    var commandCRC = CRC32()

    /// The size announced by the last CREATE of a data object; 0 once it was executed.
    var dataObjectSize = 0
    /// Firmware bytes received (`firmware_image_offset`) and their CRC32.
    var offset = 0
    var crc = CRC32()
    /// The boundary of the last executed data object (`firmware_image_offset_last`, `crc_last`).
    var offsetLast = 0
    var crcLast = CRC32()

    /// The init packet validated by the last EXECUTE of the command object (the bootloader
    /// re-derives this from the stored init command when it boots).
    var acceptedInit: SecureDFUAcceptedInit?
}

/// What survives a disconnect. The nRF5 SDK changed this over time (research: SDK 15.0 and
/// 15.3 `dfu_observer` ignore NRF_DFU_EVT_TRANSPORT_DEACTIVATED; SDK 16.0 and 17.1 answer it
/// with `nrf_dfu_settings_reinit`, nrf_bootloader.c).
public enum SecureDFUResumePolicy: String, Sendable, CaseIterable {
    /// SDK 15.0-15.3: progress lives in RAM and survives a disconnect, even within an object;
    /// settings are written to flash after every executed object (what survives a reset).
    case ram
    /// SDK 16-17 with NRF_DFU_SAVE_PROGRESS_IN_FLASH=1: a disconnect reloads the settings from
    /// flash, written after every executed object: the transfer resumes at the last executed object.
    case object
    /// SDK 16-17 default (NRF_DFU_SAVE_PROGRESS_IN_FLASH=0): flash holds the progress as of the
    /// init packet's execute, so after a disconnect the init packet is kept but data restarts at 0.
    case initPacket = "init"
}
