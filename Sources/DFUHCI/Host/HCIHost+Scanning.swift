import DFUGATT

extension HCIHost {
    /// Starts scanning (active by default, with the random own address; duplicates not
    /// filtered) and forgets earlier results.
    package func startScan(active: Bool = true) async throws(HCIError) {
        guard runScan(.startRequested).contains(.enableScanning) else { return }
        try await execute(LESetScanParametersCommand(active: active, interval: configuration.scanInterval,
                                                     window: configuration.scanWindow, ownAddressType: .randomDevice))
        try await execute(LESetScanEnableCommand(enable: true))
        runScan(.scanningEnabled)
    }

    package func stopScan() async throws(HCIError) {
        guard runScan(.stopRequested).contains(.disableScanning) else { return }
        do {
            try await execute(LESetScanEnableCommand(enable: false))
        } catch where error.kind == .commandFailed(command: LESetScanEnableCommand.name,
                                                    opcode: LESetScanEnableCommand.opcode, status: .commandDisallowed) {
            // Already stopped (e.g. by a connection): fine.
        }
    }

    /// Devices heard since the scan started, in the order first heard.
    package var advertisements: [HCIAdvertisement] { scanFlow.advertisements }

    /// Scans for `duration` and returns every device heard, strongest first.
    package func scan(for duration: Duration, active: Bool = true) async throws(HCIError) -> [HCIAdvertisement] {
        try await startScan(active: active)
        try? await Task.sleep(for: duration)
        let results = advertisements
        try await stopScan()
        return results.sorted { $0.rssi > $1.rssi }
    }

    /// Scans until a device matching `match` is heard (returned) or `timeout` passes (nil).
    /// Cancelling the calling task ends the wait as a timeout would (nil).
    package func scan(timeout: Duration, active: Bool = true,
                     until match: @escaping @Sendable (HCIAdvertisement) -> Bool) async throws(HCIError) -> HCIAdvertisement? {
        try await startScan(active: active)
        let id = makeIdentifier()
        let outcome = AsyncBuffer<HCIAdvertisement?, Never>()
        scanWaitOutcomes[id] = outcome
        runScan(.waitStarted(id, timeout: timeout, match: match))
        var found: HCIAdvertisement?
        switch await outcome.next(until: nil) {
        case let .element(heard):
            found = heard
        case .end:
            found = nil
        case .gaveUp:
            // The machine settles it: the device if it was heard meanwhile, else nil.
            runScan(.waitCancelled(id))
            found = await outcome.next() ?? nil
        }
        try await stopScan()
        return found
    }

    /// Feeds one event to the scan flow machine and runs its actions; the scan commands are
    /// returned for the caller to send (nothing here suspends).
    @discardableResult
    func runScan(_ event: ScanFlowEvent) -> [ScanFlowAction] {
        let actions = scanFlow.handle(event)
        for action in actions {
            switch action {
            case .enableScanning, .disableScanning:
                break
            case let .startTimer(id, duration):
                scanWaitTimers.start(id, after: duration) { [weak self] in await self?.scanWaitTimerFired(id) }
            case let .cancelTimer(id):
                scanWaitTimers.cancel(id)
            case let .complete(id, found):
                scanWaitOutcomes.removeValue(forKey: id)?.send(found)
            }
        }
        return actions
    }

    private func scanWaitTimerFired(_ id: UInt64) {
        guard scanWaitTimers.fired(id) else { return }
        runScan(.timerFired(id))
    }
}
