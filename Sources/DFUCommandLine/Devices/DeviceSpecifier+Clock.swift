/// Which clock a `sim:` device's times are on: `realtime=SPEED` (parsed by the simulator's
/// `SimulatorConfiguration`) makes its world follow the wall clock.
extension DeviceSpecifier {
    /// Whether a `sim:` device follows the wall clock (`realtime=` given).
    var isRealtime: Bool {
        guard transport == .sim, let query = target.split(separator: "?", maxSplits: 1).dropFirst().first else { return false }
        return query.split(separator: "&").contains { $0.hasPrefix("realtime=") }
    }

    /// Whether times are on the simulator's virtual clock (a `sim:` device without `realtime=`).
    var isSimulatedClock: Bool { transport == .sim && !isRealtime }
}
