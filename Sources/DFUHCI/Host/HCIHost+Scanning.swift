import DFUGATT

extension HCIHost {
    /// Starts scanning (active by default, with the random own address; duplicates not
    /// filtered) and forgets earlier results.
    package func startScan(active: Bool = true) async throws(HCIError) {
        scanResults = [:]
        scanOrder = []
        guard !isScanning else { return }
        try await execute(LESetScanParametersCommand(active: active, interval: configuration.scanInterval,
                                                     window: configuration.scanWindow, ownAddressType: .randomDevice))
        try await execute(LESetScanEnableCommand(enable: true))
        isScanning = true
    }

    package func stopScan() async throws(HCIError) {
        guard isScanning else { return }
        isScanning = false
        do {
            try await execute(LESetScanEnableCommand(enable: false))
        } catch where error.kind == .commandFailed(command: LESetScanEnableCommand.name,
                                                    opcode: LESetScanEnableCommand.opcode, status: .commandDisallowed) {
            // Already stopped (e.g. by a connection): fine.
        }
    }

    /// Devices heard since the scan started, in the order first heard.
    package var advertisements: [HCIAdvertisement] { scanOrder.compactMap { scanResults[$0] } }

    /// Scans for `duration` and returns every device heard, strongest first.
    package func scan(for duration: Duration, active: Bool = true) async throws(HCIError) -> [HCIAdvertisement] {
        try await startScan(active: active)
        try? await Task.sleep(for: duration)
        let results = advertisements
        try await stopScan()
        return results.sorted { $0.rssi > $1.rssi }
    }

    /// Scans until a device matching `match` is heard (returned) or `timeout` passes (nil).
    package func scan(timeout: Duration, active: Bool = true,
                     until match: @escaping @Sendable (HCIAdvertisement) -> Bool) async throws(HCIError) -> HCIAdvertisement? {
        try await startScan(active: active)
        let found: HCIAdvertisement?
        if let seen = advertisements.first(where: match) {
            found = seen
        } else {
            let id = makeIdentifier()
            // Cancelling the calling task ends the wait as a timeout would (nil).
            found = await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<HCIAdvertisement?, Never>) in
                    guard !Task.isCancelled else {
                        continuation.resume(returning: nil)
                        return
                    }
                    scanWaiters[id] = ScanWaiter(match: match, continuation: continuation)
                    scanWaiters[id]?.timeoutTask = Task { [weak self] in
                        try? await Task.sleep(for: timeout)
                        guard !Task.isCancelled else { return }
                        await self?.finishScanWaiter(id, with: nil)
                    }
                }
            } onCancel: {
                Task { await self.finishScanWaiter(id, with: nil) }
            }
        }
        try await stopScan()
        return found
    }

    func finishScanWaiter(_ id: UInt64, with advertisement: HCIAdvertisement?) {
        guard let waiter = scanWaiters.removeValue(forKey: id) else { return }
        waiter.timeoutTask?.cancel()
        waiter.continuation.resume(returning: advertisement)
    }

    func noteAdvertisement(address: DeviceAddress, addressType: HCIAddressType, data: [UInt8], isScanResponse: Bool,
                           isConnectable: Bool, rssi: Int) {
        if var known = scanResults[address] {
            known.merge(data: data, isScanResponse: isScanResponse, isConnectable: isConnectable, rssi: rssi)
            scanResults[address] = known
        } else {
            let parsed = AdvertisingData(bytes: data)
            scanResults[address] = HCIAdvertisement(
                address: address, addressType: addressType, isConnectable: isScanResponse ? true : isConnectable,
                advertisingData: isScanResponse ? AdvertisingData(structures: []) : parsed,
                scanResponseData: isScanResponse ? parsed : nil, rssi: rssi == 127 ? -127 : rssi)
            scanOrder.append(address)
        }
        guard let updated = scanResults[address] else { return }
        for (id, waiter) in scanWaiters where waiter.match(updated) {
            finishScanWaiter(id, with: updated)
        }
    }
}

struct ScanWaiter {
    let match: @Sendable (HCIAdvertisement) -> Bool
    let continuation: CheckedContinuation<HCIAdvertisement?, Never>
    var timeoutTask: Task<Void, Never>?
}
