import DFULedger
import DFUStation

/// The dashboard's source for the ledger at `ledgerURL`: the snapshot, the device histories and
/// the change watch read from it, the line controls recorded in it.
func makeDashboardSource(ledgerURL: LedgerURL) -> any DashboardSource {
    LedgerDashboardSource(ledgerURL: ledgerURL)
}
