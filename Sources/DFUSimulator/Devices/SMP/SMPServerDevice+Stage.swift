/// What `sim:mcumgr-smp` holds of an image, by its MCUboot image hash: running (confirmed or on
/// trial), in slot 1 (marked or not), or part of an upload.
extension SMPServerDevice: FirmwareStageReporting {
    public func stage(of target: TargetFirmware) -> FirmwareStageReport {
        var running = "runs \(server.slots.primary.versionString)"
        if cycle.isBooting { running += " (booting)" } else if cycle.isResetDue { running += " (reset due)" }
        return server.stage(of: target, running: running)
    }
}
