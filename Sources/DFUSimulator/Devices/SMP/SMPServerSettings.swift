/// How a simulated SMP server is built (the `sim:mcumgr-smp` keys in parentheses).
public struct SMPServerSettings: Sendable, Equatable {
    /// How the upload slot is erased.
    package enum EraseMode: String, Sendable, Equatable, CaseIterable {
        /// Each 4 KiB page when the upload first reaches it (`CONFIG_IMG_ERASE_PROGRESSIVELY`).
        case progressive
        /// The first chunk erases `len` bytes of the slot at once: it can take seconds.
        case slot
        /// The slot is already erased: no erase time.
        case none
    }

    /// Largest request frame, header included, the server takes (`buf-size`; NCS with SMP
    /// reassembly: 2475). Longer requests are answered `{rc: 7}` (EMSGSIZE).
    public var bufferSize = 2475
    /// Requests that may wait or be processed at once (`buf-count`); further ones are dropped.
    public var bufferCount = 4
    /// (`erase`)
    package var eraseMode = EraseMode.progressive
    /// 2: answers in the request's version (Zephyr 3.3 and later). 1: a server that only knows
    /// the original protocol answers everything as v1 (header version 0, `{rc}` errors)
    /// (`smp-version`).
    package var protocolVersion = 2
    /// Size of each of the two image slots.
    package var slotSize = 1 << 20
    /// The flash timing of erases and writes.
    public var flash = FlashTiming()
    /// Decoding a request and building its answer, before any flash work.
    package var requestOverhead: Duration = .microseconds(500)
    /// Requests (1-based, counted over the device's life) answered `{rc: 10}` (EBUSY).
    package var busyRequests: Set<Int> = []
    /// `disconnect-on` / `disconnect-after-command` faults.
    package var commandDisconnects: [CommandDisconnect] = []

    /// From the `reset` request's handling to the reboot (`reset-delay-ms`). Zephyr's os_mgmt
    /// `os_mgmt_reset` only arms a delayed reboot (`k_work_schedule` / `k_timer_start` with
    /// `CONFIG_MCUMGR_GRP_OS_RESET_MS`, default 250: "This delay allows time for the MCUmgr
    /// response to be delivered", zephyr subsys/mgmt/mcumgr/grp/os_mgmt/Kconfig); the answer
    /// goes out and the device keeps running until `sys_reboot`.
    package var resetDelay: Duration = .milliseconds(250)
    /// From the reset (after any swap) to the first advertisement (`boot-ms`): MCUboot
    /// validating slot 0, then Zephyr starting Bluetooth. About 1 s on an nRF52832, mostly the
    /// validation (DevZone 117765; mcuboot docs/design.md "Integrity check": 1-2 s on a
    /// Cortex-M0).
    package var bootTime: Duration = .seconds(1)
    /// MCUboot's swap time per KiB of image (`swap-ms-per-kib`); nil: from the flash timing
    /// (`swapTime(bytes:)`).
    package var swapPerKiB: Duration?

    /// Zephyr's defaults.
    public init() {}

    /// How long MCUboot's swap-move takes for `bytes` of image: every sector the image uses
    /// moves up one sector (an erase and a write), then each pair of sectors is swapped (an
    /// erase and a write in each slot): three erases and three writes per sector (mcuboot
    /// boot/bootutil/src/swap_move.c `swap_run`; docs/design.md "Swap using move": two erase
    /// cycles on the primary slot, one on the secondary). With nRF52 flash timing that is about
    /// 97 ms per KiB, some 30 s for a 300 KiB image, as reported for the nRF52840
    /// (JuulLabs-OSS/mcumgr-android PR #38: "the swap operation takes ~30 seconds").
    package func swapTime(bytes: Int) -> Duration {
        if let swapPerKiB { return swapPerKiB * bytes / 1024 }
        let sectors = (bytes + flash.pageSize - 1) / flash.pageSize
        return (flash.pageErase + flash.writePerByte * flash.pageSize) * (3 * sectors)
    }

    /// From a reset to the application running again when MCUboot did `action` at boot: its
    /// flash work (a swap, or erasing an image that failed validation), then `bootTime`. Every
    /// transport of the server (BLE, serial, UDP) reboots the same way.
    package func silence(after action: MCUbootSlots.BootAction) -> Duration {
        let bootloaderWork: Duration
        switch action {
        case .none: bootloaderWork = .zero
        case let .swapped(bytes): bootloaderWork = swapTime(bytes: bytes)
        case let .erasedInvalidImage(bytes):
            bootloaderWork = flash.pageErase * ((bytes + flash.pageSize - 1) / flash.pageSize)
        }
        return bootloaderWork + bootTime
    }
}
