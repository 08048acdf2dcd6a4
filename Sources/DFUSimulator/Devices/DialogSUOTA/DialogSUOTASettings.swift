/// What `sim:dialog-suota?...` can change beyond timing and faults (keys `corrupt-stored`,
/// `on-reboot`, `dis`). The defaults are the SDK 6 examples as they ship.
package struct DialogSUOTASettings: Sendable, Equatable {
    /// What the application does with the SUOTA reboot command (MEM_DEV 0xFD).
    package enum RebootBehaviour: String, Sendable, Equatable, CaseIterable {
        /// SDK 6 `app_suotar.c` sets `suota_state.reboot_requested` and ends the link
        /// (`app_easy_gap_disconnect`); the example's `user_app_on_disconnect` then calls
        /// `platform_reset(RESET_AFTER_SUOTA_UPDATE)`: the bootloader picks the image.
        case reset
        /// The link is ended as above, but the application's `user_app_on_disconnect` does not
        /// test `reboot_requested` ("It's up to user's code do a reset and boot the new image
        /// when the initiator disconnects", app_suotar.c): it keeps running its old image and
        /// advertises again; the new bank boots at the next reset (a power cycle).
        case disconnect
        /// The write is answered and nothing else happens: an application whose receiver does
        /// not act on 0xFD (nothing in the service itself resets the chip). The link stays up,
        /// the old image runs; the new bank boots at the next reset.
        case ignore
    }

    /// What the application's Device Information service (0x180A) says.
    package enum DeviceInformation: String, Sendable, Equatable, CaseIterable {
        /// SDK 6 `user_profiles_config.h` of the examples: `APP_DIS_SW_REV SDK_VERSION`,
        /// `APP_DIS_FIRM_REV SDK_VERSION` (also `APP_DIS_FIRM_REV_STR`, `APP_DIS_SW_REV_STR`):
        /// Firmware Revision 2A26 and Software Revision 2A28 both hold the SDK's version string,
        /// the same for the old and the new image when both are built with one SDK.
        case sdk
        /// 2A26 the SDK's version, 2A28 the running image's header version string (an
        /// application that tags its build: `APP_DIS_SW_REV_STR` set to its own version).
        case image
        /// No Device Information service (`CFG_PRF_DISS` not defined, as the DA14531 builds of
        /// the examples leave it out to save space).
        case none
    }

    /// `corrupt-stored=OFFSET`: the flash write of the image byte at this file offset (64 or
    /// more: the code) stores it with bit 0 inverted. The receiver XORs the bytes it received
    /// (`app_suotar_img_hdlr`: `crc_calc ^= suota_all_pd[i]` before the flash write), so the end
    /// command still answers CMP_OK and marks the bank valid, while the secondary bootloader's
    /// `crc32` of the code in the bank (`loadActiveImage`) no longer matches the header's CRC:
    /// at the next reset it boots the other valid bank.
    package var corruptStoredOffset: Int?
    package var onReboot = RebootBehaviour.reset
    package var deviceInformation = DeviceInformation.sdk

    /// The defaults of Dialog's SDK 6 examples.
    package init() {}
}
