/// When a simulated device resets and how long it is silent (`sim:` keys `reset-delay-ms`,
/// `boot-ms`, `swap-ms-per-kib`). A nil field keeps the device's own default, which models its
/// shipped firmware (see each device's documentation for the source).
public struct DeviceTiming: Sendable, Equatable {
    /// From the answer that asks for a reset to the reboot (vendor-ctrlpt `activate`,
    /// mcumgr-smp `reset`).
    package var resetDelay: Duration?
    /// From the reset (after any swap or bank copy) to the first advertisement.
    public var boot: Duration?
    /// MCUboot's swap time per KiB of image (mcumgr-smp).
    package var swapPerKiB: Duration?

    /// Timing overrides; nil keeps the device's default.
    public init(resetDelay: Duration? = nil, boot: Duration? = nil, swapPerKiB: Duration? = nil) {
        self.resetDelay = resetDelay
        self.boot = boot
        self.swapPerKiB = swapPerKiB
    }
}
