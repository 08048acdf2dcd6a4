/// What `sim:telink-ota` holds of an image: the image it runs, the one a successful OTA chose
/// (it boots it at once), or part of it in an OTA under way (lost when that OTA fails).
extension TelinkOTADevice: FirmwareStageReporting {
    package func stage(of target: TargetFirmware) -> FirmwareStageReport {
        let runs = running.image == target.bytes ? "runs the new image (\(running.revision))"
            : "runs \(running.revision)"
        if pendingImage == target.bytes {
            return FirmwareStageReport(.pending, runs + "; the OTA took the new image, the device is rebooting into it")
        }
        if running.image == target.bytes {
            return FirmwareStageReport(.installed, isBooting ? runs + " (booting)" : runs)
        }
        let held = receivedBytes
        if held.count >= target.bytes.count, held.starts(with: target.bytes) {
            return FirmwareStageReport(.received, runs + "; an OTA holds the whole new image (not ended yet)")
        }
        if let partial = target.partial(Array(held.prefix(target.bytes.count))) {
            return FirmwareStageReport(.unchanged, runs + "; an OTA " + partial + " (erased if it fails)")
        }
        return FirmwareStageReport(.unchanged, runs)
    }
}
