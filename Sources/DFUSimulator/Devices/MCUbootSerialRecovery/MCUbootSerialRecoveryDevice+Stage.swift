/// What a device in MCUboot's serial recovery holds of an image: slot 0 is written in place, so
/// the previous application is gone from the first chunk on (`overwritten`) until a whole image
/// is there; then MCUboot boots it at the next reset (`pending`), and once the application in
/// slot 0 runs, it runs for good (`installed`: no test, no confirm).
extension MCUbootSerialRecoveryDevice {
    /// How far the device got with `target`, from what slot 0 holds and what runs.
    public func stage(of target: TargetFirmware) -> FirmwareStageReport {
        let hash = target.imageHash ?? SMPSlotImage(bytes: target.bytes)?.hash
        let written = flash.primary
        guard let primary = primaryImage else {
            if let partial = target.partial(written) {
                return FirmwareStageReport(.overwritten, "slot 0 \(partial): no application to boot")
            }
            return FirmwareStageReport(.overwritten, written.isEmpty ? "slot 0 is erased: no application to boot"
                                           : "slot 0 holds no valid image: no application to boot")
        }
        guard let hash, primary.hash == hash else {
            return FirmwareStageReport(.unchanged, "slot 0 holds \(primary.versionString), not the new image")
        }
        if mode == .application {
            return FirmwareStageReport(.installed, "the application in slot 0, \(primary.versionString), runs")
        }
        return FirmwareStageReport(.pending, "slot 0 holds the whole new image \(primary.versionString); MCUboot boots it "
                                       + "at the next reset")
    }
}
