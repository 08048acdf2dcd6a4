/// What `sim:mcumgr-smp` holds of an image, by its MCUboot image hash: running (confirmed or on
/// trial), in slot 1 (marked or not), or part of an upload.
extension SMPServerDevice: FirmwareStageReporting {
    public func stage(of target: TargetFirmware) -> FirmwareStageReport {
        let slots = server.slots
        let hash = target.imageHash ?? SMPSlotImage(bytes: target.bytes)?.hash
        var running = "runs \(slots.primary.versionString)"
        if cycle.isBooting { running += " (booting)" } else if cycle.isResetDue { running += " (reset due)" }
        if let hash, slots.primary.hash == hash {
            if slots.swapType == .revert {
                return FirmwareStageReport(.unconfirmed, running + " unconfirmed: it reverts at the next reset")
            }
            return FirmwareStageReport(.installed, running + ", confirmed")
        }
        if let hash, let secondary = slots.secondary, secondary.hash == hash {
            switch slots.swapType {
            case .test, .permanent:
                let kind = slots.swapType == .test ? "a test" : "good"
                return FirmwareStageReport(.pending, running + "; slot 1 holds \(secondary.versionString), set to boot "
                                               + "at the next reset for \(kind)")
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
