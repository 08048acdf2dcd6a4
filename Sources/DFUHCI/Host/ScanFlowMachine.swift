import DFUGATT

/// Scanning as a pure state machine: whether the controller scans, what it heard since the
/// scan started (each device's advertisement merged with its scan response, in the order first
/// heard), and callers waiting for one device. Events in, actions out; `HCIHost` drives it
/// (`startScan`, `stopScan`, `scan`), sending the scan commands, with a timer per wait and an
/// `AsyncBuffer` per waiting caller.
///
/// Reports are kept whether or not the scan is on (the controller may send a few after it was
/// stopped). A wait outlives a stop (a connection stops the scan) until its device, its timeout,
/// its caller's cancellation or the host's close; each wait ends once, later events ignored.
package struct ScanFlowMachine: Sendable {
    /// Names one wait; chosen by the driver, unique per host.
    package typealias ID = UInt64

    /// Every device heard, in the order first heard.
    struct Results: Sendable {
        var byAddress: [DeviceAddress: HCIAdvertisement] = [:]
        var order: [DeviceAddress] = []

        var all: [HCIAdvertisement] { order.compactMap { byAddress[$0] } }

        /// Merges one report; returns the device as now known.
        mutating func note(_ report: HCIAdvertisingReport) -> HCIAdvertisement {
            if var known = byAddress[report.address] {
                known.merge(data: report.data, isScanResponse: report.isScanResponse,
                            isConnectable: report.isConnectable, rssi: report.rssi)
                byAddress[report.address] = known
                return known
            }
            let parsed = AdvertisingData(bytes: report.data)
            let heard = HCIAdvertisement(
                address: report.address, addressType: report.addressType,
                isConnectable: report.isScanResponse ? true : report.isConnectable,
                advertisingData: report.isScanResponse ? AdvertisingData(structures: []) : parsed,
                scanResponseData: report.isScanResponse ? parsed : nil, rssi: report.rssi == 127 ? -127 : report.rssi)
            byAddress[report.address] = heard
            order.append(report.address)
            return heard
        }
    }

    /// A caller waiting for a device; its timer runs.
    struct Waiter: Sendable {
        let id: ID
        let match: @Sendable (HCIAdvertisement) -> Bool
    }

    enum State: Sendable {
        /// The controller does not scan (or its scan is being enabled).
        case stopped(Results, waiters: [Waiter])
        /// The controller scans.
        case scanning(Results, waiters: [Waiter])
        /// The host is gone; `whileScanning` if it was scanning then (a stop then asks for the
        /// command, which fails with the host's error).
        case closed(Results, whileScanning: Bool)
    }

    private(set) var state = State.stopped(Results(), waiters: [])

    package init() {}

    /// Whether the controller scans.
    package var isScanning: Bool {
        if case .scanning = state { return true }
        return false
    }

    /// Devices heard since the scan started, in the order first heard.
    package var advertisements: [HCIAdvertisement] {
        switch state {
        case let .stopped(results, _), let .scanning(results, _), let .closed(results, _): return results.all
        }
    }

    /// Callers waiting for a device.
    package var waitingCount: Int {
        switch state {
        case let .stopped(_, waiters), let .scanning(_, waiters): return waiters.count
        case .closed: return 0
        }
    }

    package mutating func handle(_ event: ScanFlowEvent) -> [ScanFlowAction] {
        switch state {
        case let .closed(results, whileScanning):
            return handleClosed(event, results: results, whileScanning: whileScanning)
        case let .stopped(results, waiters):
            return handle(event, results: results, waiters: waiters, scanning: false)
        case let .scanning(results, waiters):
            return handle(event, results: results, waiters: waiters, scanning: true)
        }
    }

    private mutating func handle(_ event: ScanFlowEvent, results: Results, waiters: [Waiter],
                                 scanning: Bool) -> [ScanFlowAction] {
        var results = results
        var waiters = waiters
        var scanning = scanning
        var actions: [ScanFlowAction] = []
        switch event {
        case .startRequested:
            results = Results()
            if !scanning { actions = [.enableScanning] }
        case .scanningEnabled:
            scanning = true
        case .stopRequested:
            if scanning { actions = [.disableScanning] }
            scanning = false
        case let .reported(report):
            let heard = results.note(report)
            waiters.removeAll { waiter in
                guard waiter.match(heard) else { return false }
                actions += [.cancelTimer(waiter.id), .complete(waiter.id, heard)]
                return true
            }
        case let .waitStarted(id, timeout, match):
            if let seen = results.all.first(where: match) {
                actions = [.complete(id, seen)]
            } else {
                waiters.append(Waiter(id: id, match: match))
                actions = [.startTimer(id, after: timeout)]
            }
        case let .timerFired(id):
            if let index = waiters.firstIndex(where: { $0.id == id }) {
                waiters.remove(at: index)
                actions = [.complete(id, nil)]
            }
        case let .waitCancelled(id):
            if let index = waiters.firstIndex(where: { $0.id == id }) {
                waiters.remove(at: index)
                actions = [.cancelTimer(id), .complete(id, nil)]
            }
        case .hostClosed:
            state = .closed(results, whileScanning: scanning)
            return waiters.flatMap { [.cancelTimer($0.id), .complete($0.id, nil)] }
        }
        state = scanning ? .scanning(results, waiters: waiters) : .stopped(results, waiters: waiters)
        return actions
    }

    private mutating func handleClosed(_ event: ScanFlowEvent, results: Results, whileScanning: Bool) -> [ScanFlowAction] {
        switch event {
        case .startRequested:
            // The command fails with the host's error.
            state = .closed(Results(), whileScanning: whileScanning)
            return whileScanning ? [] : [.enableScanning]
        case .stopRequested:
            state = .closed(results, whileScanning: false)
            return whileScanning ? [.disableScanning] : []
        case let .waitStarted(id, _, _):
            return [.complete(id, nil)]
        case .scanningEnabled, .reported, .timerFired, .waitCancelled, .hostClosed:
            return []
        }
    }
}
