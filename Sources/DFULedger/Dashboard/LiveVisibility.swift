import Foundation

/// Which stations are gone and which live rows the dashboard shows, as of one moment: a station
/// not seen for `goneAfter` seconds without having ended is gone, and the rows of a station
/// gone or ended are stale (a station killed mid-attempt never cleared them). A row whose
/// session has no station row counts by its own last update.
struct LiveVisibility {
    /// Seconds without an announcement after which a station that has not ended is gone.
    static let goneAfter: Double = 30

    let stations: [String: StationStatus]
    let now: Date

    init(stations: [StationStatus], now: Date) {
        self.stations = Dictionary(stations.map { ($0.session, $0) }, uniquingKeysWith: { _, last in last })
        self.now = now
    }

    /// The state the dashboard shows for `status`.
    func state(of status: StationStatus) -> StationDashboardSnapshot.Station.State {
        switch status.state {
        case .ended: return .ended
        case _ where now.timeIntervalSince(status.seenAt) > Self.goneAfter: return .gone
        case .running: return .running
        case .halted: return .halted
        }
    }

    /// Whether `row` belongs to a station that is still there.
    func isVisible(_ row: LiveDevice) -> Bool {
        guard let station = stations[row.session] else { return now.timeIntervalSince(row.updatedAt) <= Self.goneAfter }
        switch state(of: station) {
        case .running, .halted: return true
        case .ended, .gone: return false
        }
    }
}
