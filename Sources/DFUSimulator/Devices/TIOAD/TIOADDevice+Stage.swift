/// What `sim:ti-oad` holds of an image: running it, enabled for the coming reset, received
/// whole with its CRC checked (while the OAD is under way), or part of it.
extension TIOADDevice: FirmwareStageReporting {
    package func stage(of target: TargetFirmware) -> FirmwareStageReport {
        let version = (running.count >= 36 ? String(decoding: running[32..<36], as: UTF8.self) : "?")
        if running == target.bytes {
            return isBooting
                ? FirmwareStageReport(.pending, "the BIM copies the new image and starts it (silent)")
                : FirmwareStageReport(.installed, "runs the new image (software version \(version))")
        }
        let runs = "runs software version \(version)"
        if isResetPending(with: target.bytes) {
            return FirmwareStageReport(.pending, runs + "; the new image is enabled and the device is about to reset")
        }
        if let downloaded {
            if downloaded == target.bytes, isComplete {
                return FirmwareStageReport(.received, runs + "; holds the whole new image, its CRC checked, not enabled")
            }
            if let partial = target.partial(downloaded) { return FirmwareStageReport(.unchanged, runs + "; " + partial) }
        }
        if bimRejected == target.bytes {
            return FirmwareStageReport(.unchanged, runs + "; the BIM copied the new image, its CRC check failed "
                                           + "(CRC_INVALID), and it reverted to the factory image")
        }
        if lastCompleted == target.bytes {
            return FirmwareStageReport(.unchanged, runs + "; external flash still holds the new image, but its OAD was "
                                           + "cancelled: it is never enabled")
        }
        return FirmwareStageReport(.unchanged, runs)
    }
}
