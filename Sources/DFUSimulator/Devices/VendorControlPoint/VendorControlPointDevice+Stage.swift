/// What `sim:vendor-ctrlpt` holds of an image: the running image, the one `activate` chose, and
/// the upload session.
extension VendorControlPointDevice: FirmwareStageReporting {
    package func stage(of target: TargetFirmware) -> FirmwareStageReport {
        let running = firmware.running.map { $0.data == target.bytes ? "runs the new image" : "runs a \($0.data.count)-byte image" }
            ?? "runs the factory image"
        if firmware.running?.data == target.bytes {
            return FirmwareStageReport(.installed, cycle.isBooting ? running + " (booting)" : running)
        }
        if firmware.activated?.data == target.bytes {
            return FirmwareStageReport(.pending, running + "; the new image is activated and boots at the reset")
        }
        guard let session = firmware.session else { return FirmwareStageReport(.unchanged, running) }
        if session.received == target.bytes {
            return FirmwareStageReport(.received, running + "; holds the whole new image ("
                                           + (session.verified ? "verified" : "not verified yet") + ")")
        }
        if let partial = target.partial(session.received) { return FirmwareStageReport(.unchanged, running + "; " + partial) }
        return FirmwareStageReport(.unchanged, running + "; holds \(session.received.count) bytes of another image")
    }
}
