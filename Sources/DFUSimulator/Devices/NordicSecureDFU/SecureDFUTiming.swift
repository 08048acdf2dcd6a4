/// Fixed delays of an nRF5 SDK 15-17 Secure DFU bootloader, from its source and sdk_config.h,
/// and the time its flash work takes on a `FlashTiming`.
public enum SecureDFUTiming {
    /// `ble_dfu_transport_close` (nrf_dfu_ble.c): after asking for the disconnect it waits
    /// `nrf_delay_ms(200)` "for the disconnect event to be sent on air", then the bootloader
    /// resets (`NRF_BL_RESET_DELAY_MS` defaults to 0).
    package static let disconnectWait: Duration = .milliseconds(200)
    /// `NRF_BL_DFU_INACTIVITY_TIMEOUT_MS`.
    package static let inactivityTimeout: Duration = .seconds(120)
    /// `NRF_BL_DFU_CONTINUATION_TIMEOUT_MS`: DFU mode after a SoftDevice or bootloader update,
    /// waiting for the next image.
    package static let continuationTimeout: Duration = .seconds(10)
    /// `boot-ms` default: from a reset to the first advertisement. The bootloader checks the
    /// application's CRC before anything else (`dfu_enter_check` -> `app_is_valid`), about
    /// 1.1 s on an nRF52832 (forum.espruino.com conversation 339116), then starts the
    /// SoftDevice and advertises.
    package static let defaultBootTime: Duration = .milliseconds(1100)
    /// Pages copied between two settings writes (`NRF_BL_FW_COPY_PROGRESS_STORE_STEP`).
    static let copyStepPages = 8

    /// One write of the settings page (`nrf_dfu_settings_write`): a page erase and about
    /// 1 KiB of settings (the init command included).
    static func settingsWrite(_ flash: FlashTiming) -> Duration {
        flash.pageErase + flash.writePerByte * 1024
    }

    /// Activating `bytes` of image after the reset (nrf_bootloader_fw_activation.c
    /// `image_copy`): bank 1 copied to bank 0 eight pages at a time, erasing and writing, the
    /// settings written and backed up after each step; then a CRC over the copy.
    static func activation(bytes: Int, flash: FlashTiming) -> Duration {
        let pages = (bytes + flash.pageSize - 1) / flash.pageSize
        let steps = (pages + copyStepPages - 1) / copyStepPages
        return flash.writeCost(offset: 0, count: bytes) + settingsWrite(flash) * (2 * steps) + flash.hashPerByte * bytes
    }
}
