import Foundation

/// The snapshot's `totals` over the attempts in its scope (in the order recorded): devices are
/// addresses with a package, grouped once.
struct DashboardTotals {
    let totals: StationDashboardSnapshot.Totals

    init(attempts: [Attempt], events: [LineEvent], inFlight: Int, now: Date) {
        var byDevice: [DeviceKey: [Attempt]] = [:]
        for attempt in attempts {
            byDevice[DeviceKey(device: attempt.device, packageSHA256: attempt.packageSHA256), default: []].append(attempt)
        }
        var done = 0, failed = 0, firstPass = 0, doneLastHour = 0
        let hourAgo = now.addingTimeInterval(-3600)
        for deviceAttempts in byDevice.values {
            if deviceAttempts.first?.result == .succeeded { firstPass += 1 }
            if let doneAttempt = deviceAttempts.first(where: { $0.result.marksDone }) {
                done += 1
                if doneAttempt.endedAt > hourAgo, doneAttempt.endedAt <= now { doneLastHour += 1 }
            } else if deviceAttempts.last?.result == .failed {
                failed += 1
            }
        }
        let quarantinedDevices = Set(events.filter { $0.kind == .quarantined }.compactMap(\.device))
        let quarantined = quarantinedDevices.filter { LineEvent.currentQuarantine(of: $0, in: events) != nil }.count
        let devices = byDevice.count
        totals = StationDashboardSnapshot.Totals(
            devices: devices, done: done, failed: failed, inFlight: inFlight, quarantined: quarantined,
            attempts: attempts.count, yield: devices > 0 ? Double(done) / Double(devices) : nil,
            firstPassYield: devices > 0 ? Double(firstPass) / Double(devices) : nil, devicesPerHour: Double(doneLastHour))
    }
}
