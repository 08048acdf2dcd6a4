/// What a Zephyr SMP device reached over a serial line or UDP holds of an image, by its MCUboot
/// image hash, as `SMPServerDevice` says it over Bluetooth: running (confirmed or on trial), in
/// slot 1 (marked or not), or part of an upload.
extension SMPWireDevice {
    /// How far the device got with `target`, from what its slots hold now.
    public func stage(of target: TargetFirmware) -> FirmwareStageReport {
        let slots = server.slots
        let hash = target.imageHash ?? SMPSlotImage(bytes: target.bytes)?.hash
        var running = "runs \(slots.primary.versionString)"
        if !isRunning { running += " (rebooting)" }
        if let hash, slots.primary.hash == hash {
            if slots.swapType == .revert {
                return FirmwareStageReport(.unconfirmed, running + " unconfirmed: it reverts at the next reset")
            }
            return FirmwareStageReport(.installed, running + ", confirmed")
        }
        if let hash, let secondary = slots.secondary, secondary.hash == hash {
            switch slots.swapType {
            case .test, .permanent:
                return FirmwareStageReport(.pending, running + "; slot 1 holds \(secondary.versionString), set to boot "
                                               + "at the next reset")
            case .none, .revert:
                return FirmwareStageReport(.received, running + "; slot 1 holds the whole new image \(secondary.versionString)")
            }
        }
        if let upload = server.upload, let partial = target.partial(upload.received) {
            return FirmwareStageReport(.unchanged, running + "; slot 1 " + partial)
        }
        return FirmwareStageReport(.unchanged, running)
    }
}
