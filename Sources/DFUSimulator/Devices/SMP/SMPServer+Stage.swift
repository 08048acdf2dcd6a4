/// What an SMP server's slots hold of an image, by its MCUboot image hash: running (confirmed or
/// on trial), in slot 1 (marked or not), or part of an upload. Shared by the device over
/// Bluetooth (`SMPServerDevice`) and over a serial line or UDP (`SMPWireDevice`).
extension SMPServer {
    /// How far the slots got with `target`; `running` says what runs (and how), for the summary.
    func stage(of target: TargetFirmware, running: String) -> FirmwareStageReport {
        let hash = target.imageHash ?? SMPSlotImage(bytes: target.bytes)?.hash
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
        if let upload, let partial = target.partial(upload.received) {
            return FirmwareStageReport(.unchanged, running + "; slot 1 " + partial)
        }
        return FirmwareStageReport(.unchanged, running)
    }
}
