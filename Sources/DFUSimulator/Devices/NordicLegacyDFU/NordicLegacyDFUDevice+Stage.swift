/// What `sim:nordic-legacy-dfu` holds of an image (its `.bin`): activated (once the copy and
/// the boot after 05 are over), activating, received in this DFU session, or part of it.
extension NordicLegacyDFUDevice: FirmwareStageReporting {
    package func stage(of target: TargetFirmware) -> FirmwareStageReport {
        var running = mode == .application ? "runs the application" : "is in DFU mode"
        if isBooting { running = "is activating or booting (silent)" }
        if let image = installed.last(where: { $0.data == target.bytes }) {
            let what = "\(image.type) v\(image.firmwareVersion.map(String.init) ?? "?")"
            if isBooting { return FirmwareStageReport(.pending, running + "; \(what) activated, not started yet") }
            return FirmwareStageReport(.installed, running + "; \(what) activated")
        }
        if receivedImage == target.bytes {
            return FirmwareStageReport(.received, running + "; holds the whole new image ("
                                           + (bootloader.isValidated ? "validated" : "not validated yet") + ")")
        }
        if let partial = target.partial(receivedImage) { return FirmwareStageReport(.unchanged, running + "; " + partial) }
        return FirmwareStageReport(.unchanged, running)
    }
}
