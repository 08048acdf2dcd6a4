/// What a Zephyr SMP device reached over a serial line or UDP holds of an image, as
/// `SMPServerDevice` says it over Bluetooth.
extension SMPWireDevice {
    /// How far the device got with `target`, from what its slots hold now.
    public func stage(of target: TargetFirmware) -> FirmwareStageReport {
        server.stage(of: target, running: "runs \(server.slots.primary.versionString)" + (isRunning ? "" : " (rebooting)"))
    }
}
