/// `sim:NAME?...&realtime=1`: a simulated device at wall-clock pace. The key is the command
/// line's (the simulator's configuration never sees it): it wraps the simulated world in a
/// `RealtimeTransport`, and the clock reported is then the wall clock.
extension DeviceSpecifier {
    /// The value of `realtime=` in a `sim:` target, if given.
    var realtimeValue: String? {
        guard transport == .sim else { return nil }
        return queryPairs.last { $0.key == "realtime" }?.value
    }

    /// Whether a `sim:` device runs at wall-clock pace.
    var isRealtime: Bool { realtimeValue == "1" }

    /// Whether times are on the simulator's virtual clock (a `sim:` device without `realtime=1`).
    var isSimulatedClock: Bool { transport == .sim && !isRealtime }

    /// The `sim:` target without `realtime=`, for `SimulatorConfiguration`.
    var simulatorTarget: String {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return target }
        let kept = parts[1].split(separator: "&").filter { !$0.hasPrefix("realtime=") }
        return kept.isEmpty ? String(parts[0]) : parts[0] + "?" + kept.joined(separator: "&")
    }

    private var queryPairs: [(key: String, value: String)] {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return [] }
        return parts[1].split(separator: "&").map { pair in
            let keyValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(keyValue[0]), keyValue.count == 2 ? String(keyValue[1]) : "")
        }
    }
}
