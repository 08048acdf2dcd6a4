import DFULedger

/// The dashboard's two line controls recorded in a ledger, as `dfukit station resume` and
/// `dfukit station release` record theirs (`Ledger.recordLineEvent`): the part of a ledger-backed
/// `DashboardSource` that the controls need. Each control opens the ledger, records, and closes it.
public struct LedgerDashboardControls: Sendable {
    /// The ledger the controls are recorded in.
    public let ledgerURL: LedgerURL

    /// Controls recorded in the ledger at `ledgerURL`.
    public init(ledgerURL: LedgerURL) {
        self.ledgerURL = ledgerURL
    }

    /// Records that `operatorName` resumed `line`; false when it is not halted (nothing recorded).
    public func resume(line: String, operator operatorName: String, reason: String?) async throws(DashboardSourceError) -> Bool {
        try await record(LineEvent(kind: .resumed, line: line, operatorName: operatorName, reason: reason))
    }

    /// Records that `operatorName` released `device`; false when it is not quarantined (nothing recorded).
    public func release(device: String, operator operatorName: String, reason: String?) async throws(DashboardSourceError) -> Bool {
        try await record(LineEvent(kind: .released, line: nil, operatorName: operatorName, reason: reason, device: device))
    }

    /// Records `event` in the existing ledger; the ledger's failure as a `DashboardSourceError`
    /// (`.unavailable` when it cannot be opened or read, `.failed` otherwise).
    private func record(_ event: LineEvent) async throws(DashboardSourceError) -> Bool {
        do throws(LedgerError) {
            // Opening with `.existing` (read only) fails on a missing file or a database without a
            // ledger; the ledger is then opened to write (and migrated when older, as the commands do).
            try await ledgerURL.open(LedgerOptions(access: .existing)).close()
            let ledger = try await ledgerURL.open()
            do throws(LedgerError) {
                let recorded = try await ledger.recordLineEvent(event)
                await ledger.close()
                return recorded
            } catch {
                await ledger.close()
                throw error
            }
        } catch {
            let kind: DashboardSourceError.Kind = error.kind == .cannotOpen || error.kind == .notALedger ? .unavailable : .failed
            throw DashboardSourceError(kind, "the control was not recorded: \(error)")
        }
    }
}
