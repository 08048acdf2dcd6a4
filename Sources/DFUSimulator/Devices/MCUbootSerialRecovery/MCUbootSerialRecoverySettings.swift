/// How a simulated MCUboot with serial recovery is built: its Kconfig options (mcuboot
/// `boot/zephyr/Kconfig.serial_recovery`) and timing.
public struct MCUbootSerialRecoverySettings: Sendable, Equatable {
    /// When MCUboot stays in serial recovery instead of booting the application.
    public enum Entrance: Sendable, Equatable {
        /// A recovery button held at power-on (`CONFIG_BOOT_SERIAL_ENTRANCE_GPIO`): the device
        /// starts in recovery; any later reset boots the application.
        case button
        /// `CONFIG_BOOT_SERIAL_WAIT_FOR_DFU` (`..._TIMEOUT`, 500 ms): after every reset MCUboot
        /// listens for `window`; an SMP request within it keeps it in recovery
        /// (`boot_serial_check_start`), otherwise it boots the application.
        case waitForDFU(window: Duration)
    }

    /// `CONFIG_BOOT_SERIAL_MAX_RECEIVE_SIZE` (`MCUBOOT_SERIAL_MAX_RECEIVE_SIZE`): 1024 in Zephyr
    /// builds (512 where no Kconfig sets it, `boot_serial.c`). The decoded total length, packet
    /// and CRC must fit in this plus one byte (`dec_buf`); a longer packet is dropped
    /// unanswered. It is also the `buf_size` the parameters command reports.
    public var maximumReceiveSize = 1024
    /// `CONFIG_BOOT_MGMT_ECHO` (off by default): echo is answered; otherwise `{rc: 8}`.
    public var echo = false
    /// `CONFIG_BOOT_MGMT_MCUMGR_PARAMS` (mcuboot 2026, off by default): the OS group's
    /// parameters command answers `{buf_size, buf_count: 1}`; otherwise `{rc: 8}`.
    public var mcumgrParameters = false
    /// `CONFIG_BOOT_SERIAL_IMG_GRP_HASH` (on by default): the image list carries each image's
    /// SHA256 TLV as `hash`.
    public var imageListHash = true
    /// `CONFIG_BOOT_SERIAL_IMG_GRP_IMAGE_STATE` (off by default): the image list carries the
    /// state flags and the image state write marks slot 1 for the next boot; otherwise the
    /// write is `{rc: 8}`.
    public var imageState = false
    /// `CONFIG_MCUBOOT_SERIAL_DIRECT_IMAGE_UPLOAD`: the upload's `image` picks the slot (0 and
    /// 1: slot 0, 2: slot 1); otherwise every upload of image 0 goes to slot 0.
    public var directUpload = false
    /// `CONFIG_BOOT_SERIAL_RAW_PROTOCOL` (mcuboot 2026): raw SMP instead of console frames.
    public var rawProtocol = false
    /// `CONFIG_BOOT_SERIAL_RAW_PROTOCOL_INPUT_TIMEOUT_MS` (3000, on with the raw protocol).
    public var rawInputTimeout: Duration? = .seconds(3)
    /// `CONFIG_BOOT_ERASE_PROGRESSIVELY` (on for Nordic and i.MX RT): pages are erased as the
    /// upload reaches them; otherwise the first chunk erases the whole slot.
    public var eraseProgressively = true
    /// Each slot's size: what an upload's `len` may not exceed.
    public var slotSize = 0x7_4000
    /// The flash write block (`flash_area_align`): 4 bytes on nRF52. A chunk that does not end
    /// on it is written up to it, and its tail asked for again (unless it ends the image).
    public var writeAlignment = 4
    /// Flash timing of erases and writes.
    public var flash = FlashTiming()
    /// Decoding a request and building its answer.
    public var requestOverhead: Duration = .microseconds(300)
    /// `bs_reset`: the answer goes out, then `k_sleep(K_MSEC(250))`, then `sys_reboot`.
    public var resetWait: Duration = .milliseconds(250)
    /// From a reset to serial recovery listening (no image validation first).
    public var recoveryBootTime: Duration = .milliseconds(100)
    /// How the device enters recovery.
    public var entrance = Entrance.button
    /// Whether the application MCUboot boots answers SMP on the same port (over the console,
    /// as `SMPWireDevice` does); otherwise it prints and ignores SMP.
    public var applicationSpeaksSMP = true
    /// The application's SMP server (its net_bufs, erase mode, reset delay and boot time).
    public var application = SMPServerSettings()
    /// What the application prints on the console; nil: nothing.
    public var applicationLog: ZephyrConsoleLog? = ZephyrConsoleLog()

    /// MCUboot's defaults for a Zephyr build on an nRF52, the application's SMP server over a
    /// serial line (384-byte net_bufs).
    public init() {
        application.bufferSize = 384
    }
}
