/// What `sim:silabs-ota` holds of a GBL file: the application flash holds (the file it came
/// from), or what the AppLoader received of it.
extension SilabsOTADevice: FirmwareStageReporting {
    package func stage(of target: TargetFirmware) -> FirmwareStageReport {
        if let application, application.gbl == target.bytes {
            if mode == .application { return FirmwareStageReport(.installed, "runs the new application" + booting) }
            return FirmwareStageReport(.pending, "holds the new application; boots it at the next reset" + booting)
        }
        if session.verified, session.received == target.bytes {
            return FirmwareStageReport(.pending, "the AppLoader verified the new image; it boots when the link closes")
        }
        guard let application else {
            let partial = target.partial(session.received).map { "; " + $0 } ?? ""
            return FirmwareStageReport(.overwritten, "no valid application: waits in the AppLoader" + partial)
        }
        let running = "runs application version 0x" + String(application.version, radix: 16)
        if session.overwroteApplication {
            return FirmwareStageReport(.overwritten, "the AppLoader is writing over application 0x"
                                           + String(application.version, radix: 16) + "; "
                                           + (target.partial(session.received) ?? "holds part of another image"))
        }
        return FirmwareStageReport(.unchanged, mode == .application ? running : running + " (in the AppLoader now)")
    }

    private var booting: String { isBooting ? " (booting)" : "" }
}
