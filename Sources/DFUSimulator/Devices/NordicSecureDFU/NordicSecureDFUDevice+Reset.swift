/// How `NordicSecureDFUDevice` leaves DFU mode, activates and boots, on the clock.
///
/// After the last EXECUTE (validated or not) an SDK 15-17 bootloader answers `60 04 xx`, then
/// writes and backs up its settings (`nrf_dfu_settings_write_and_backup(on_dfu_complete)`),
/// closes the transport (`nrf_dfu.c` `dfu_observer` -> `ble_dfu_transport_close`: LL terminate
/// with `DFU_BLE_RESETTING_SOON`, so no advertising, then 200 ms), backs the settings up once
/// more and resets (`nrf_bootloader.c` `bootloader_reset(true)`). After the reset it activates
/// what was validated (`nrf_bootloader_fw_activate`), resets again and starts the application
/// (`ACTIVATION_SUCCESS`), or stays in DFU mode for the next image after a SoftDevice or
/// bootloader (`ACTIVATION_SUCCESS_EXPECT_ADDITIONAL_UPDATE`, 10 s continuation timeout).
/// ABORT closes the transport and resets without the settings writes.
extension NordicSecureDFUDevice {
    public func isAdvertising(at time: Duration) -> Bool { cycle.isAdvertising && !enteringBootloader }

    public var nextTimer: Duration? {
        [cycle.deadline, inactivityDeadline].compactMap { $0 }.min()
    }

    /// When DFU mode's inactivity timer runs out, while it runs.
    private var inactivityDeadline: Duration? {
        guard mode == .bootloader, cycle.phase == .running, !enteringBootloader else { return nil }
        return bootloader.inactivityRestartedAt + inactivityTimeout
    }

    public func fireTimers(at time: Duration) -> [PeripheralEvent] {
        switch cycle.due(at: time) {
        case .reset?:
            reboot(at: time)
            return [.reset(reason: "the bootloader reset")]
        case .booted?:
            if mode == .bootloader { bootloader.reset(at: time) }
            return []
        case nil:
            guard let deadline = inactivityDeadline, deadline <= time else { return [] }
            let timeout = inactivityTimeout
            reboot(at: time)
            return [.reset(reason: "the bootloader's inactivity timeout reset it (\(timeout) without DFU progress)")]
        }
    }

    public func powerCycle(at time: Duration) {
        enteringBootloader = false
        reboot(at: time)
    }

    public func shiftClock(by offset: Duration) {
        cycle.shift(by: offset)
        bootloader.shiftClock(by: offset)
    }

    /// The reply that ends DFU mode was answered at `answeredAt`: the link's end, and the reset.
    func leaveDFUMode(_ reset: SecureDFUReply.Reset, answeredAt: Duration) -> PeripheralOutput {
        let settings = SecureDFUTiming.settingsWrite(bootloader.flash)
        let terminateAt: Duration
        let resetAt: Duration
        switch reset {
        case .afterUpdate:
            terminateAt = answeredAt + settings * 2
            resetAt = terminateAt + transportCloseWait + settings
        case .abort:
            terminateAt = answeredAt
            resetAt = terminateAt + transportCloseWait
        }
        cycle.scheduleReset(at: resetAt, advertises: false)
        return PeripheralOutput(pdu: .terminate, readyAt: terminateAt, disconnectAfterSending: true,
                                disconnectReason: "the bootloader ended the link to reset")
    }

    /// A reset (its time came, the inactivity timer, a power glitch): validated images are
    /// activated, then the application (buttonless) or DFU mode starts.
    private func reboot(at time: Duration) {
        var next: Mode = buttonless == nil ? .bootloader : .application
        var work = Duration.zero
        inactivityTimeout = SecureDFUTiming.inactivityTimeout
        let pending = installed[activatedCount...]
        for image in pending {
            work += SecureDFUTiming.activation(bytes: image.data.count, flash: bootloader.flash)
            if image.type != .application {
                next = .bootloader
                inactivityTimeout = SecureDFUTiming.continuationTimeout
            }
        }
        activatedCount = installed.count
        restart(into: next, at: time, silentFor: work + bootTime)
    }

    /// RAM is lost; silent for `silence`, then the device runs in `next`.
    func restart(into next: Mode, at time: Duration, silentFor silence: Duration) {
        rebootCount += 1
        mode = next
        if next == .application { bootloaderName = configuredBootloaderName }
        bootloader.reset(at: time)
        cycle.rebooted(at: time, silentFor: silence)
    }
}
