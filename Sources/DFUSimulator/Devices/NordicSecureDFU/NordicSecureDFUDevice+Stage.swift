/// What `sim:nordic-secure-dfu` holds of an image (its `.bin`): activated (and, buttonless,
/// running once the boot after it is over), validated and waiting for the reset, whole in the
/// bank, or part of it.
extension NordicSecureDFUDevice: FirmwareStageReporting {
    package func stage(of target: TargetFirmware) -> FirmwareStageReport {
        var running = mode == .application ? "runs the application" : "is in DFU mode"
        if isBooting { running = "is resetting (silent)" }
        let activated = installed[..<activatedCount]
        let validated = installed[activatedCount...]
        if let image = activated.last(where: { $0.data == target.bytes }) {
            let what = "\(image.type) v\(image.firmwareVersion.map(String.init) ?? "?")"
            if buttonless != nil, image.type == .application, isBooting {
                return FirmwareStageReport(.pending, running + "; \(what) activated, the application starts when the boot ends")
            }
            return FirmwareStageReport(.installed, running + "; \(what) activated")
        }
        if validated.contains(where: { $0.data == target.bytes }) {
            return FirmwareStageReport(.pending, running + "; the new image is validated and activates at the reset")
        }
        let received = receivedFirmware
        if received == target.bytes {
            return FirmwareStageReport(.received, running + "; the bank holds the whole new image, not executed")
        }
        if let partial = target.partial(received) { return FirmwareStageReport(.unchanged, running + "; the bank " + partial) }
        return FirmwareStageReport(.unchanged, running)
    }
}
