import DFULedger
import DFUStation
import Foundation

// Where `dfukit station serve` gets its data. For now only the line controls are wired to the
// ledger (LedgerDashboardControls); the snapshot, the device history and the change watch answer
// 503 "dashboard data not wired yet" until the ledger's snapshot builder and change watcher
// (ledger schema 5) are merged. This file is replaced then.

/// The dashboard's source for the ledger at `ledgerURL`.
func makeDashboardSource(ledgerURL: LedgerURL) -> any DashboardSource {
    ControlsOnlyDashboardSource(controls: LedgerDashboardControls(ledgerURL: ledgerURL))
}

/// A source whose controls are recorded in the ledger and whose data is not there yet.
struct ControlsOnlyDashboardSource: DashboardSource {
    let controls: LedgerDashboardControls

    static let notWired = DashboardSourceError(.unavailable, "dashboard data not wired yet: this build records the line "
                                               + "controls but does not read the line's state from the ledger")

    func snapshot(line: String?, controlsEnabled: Bool) async throws -> Data { throw Self.notWired }

    func deviceHistory(_ address: String) async throws -> Data? { throw Self.notWired }

    func waitForChange(timeout: Duration) async throws -> Bool {
        try await Task.sleep(for: timeout)
        return false
    }

    func resume(line: String, operator operatorName: String, reason: String?) async throws -> Bool {
        try await controls.resume(line: line, operator: operatorName, reason: reason)
    }

    func release(device: String, operator operatorName: String, reason: String?) async throws -> Bool {
        try await controls.release(device: device, operator: operatorName, reason: reason)
    }
}
