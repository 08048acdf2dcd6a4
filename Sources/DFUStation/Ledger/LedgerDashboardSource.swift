import DFULedger
import Foundation
import Synchronization

/// The dashboard's data read from a ledger: the snapshot (`StationDashboardSnapshot`), a
/// device's history (`DeviceHistory`) and the ledger's changes (`LedgerChangeWatcher`: PostgreSQL
/// `LISTEN/NOTIFY`, SQLite's data version), with the line controls of `LedgerDashboardControls`.
///
/// The ledger is opened read-only (`.existing`) on first use and kept; a ledger that does not
/// exist yet (a line whose first station has not started) answers 503 until it does. One watcher
/// serves every open page: a background task counts the changes it reports, and each
/// `waitForChange` waits for the count to move past the value it found on entry.
public final class LedgerDashboardSource: DashboardSource {
    /// The ledger read and written.
    public let ledgerURL: LedgerURL
    private let controls: LedgerDashboardControls
    private let ledger = Mutex<(any Ledger)?>(nil)
    private let changes = ChangeCount()
    private let watching = Mutex<Task<Void, Never>?>(nil)

    /// A source over the ledger at `ledgerURL`; it starts watching the ledger at once.
    public init(ledgerURL: LedgerURL) {
        self.ledgerURL = ledgerURL
        controls = LedgerDashboardControls(ledgerURL: ledgerURL)
        let url = ledgerURL
        let changes = self.changes
        watching.withLock {
            $0 = Task.detached { await Self.watch(url, counting: changes) }
        }
    }

    deinit {
        watching.withLock { $0?.cancel() }
    }

    /// Counts the ledger's changes until cancelled; a watcher that cannot start (the ledger does
    /// not exist yet) is tried again every second, and a fresh start counts as a change.
    private static func watch(_ url: LedgerURL, counting changes: ChangeCount) async {
        while !Task.isCancelled {
            let watcher: LedgerChangeWatcher
            do {
                watcher = try await LedgerChangeWatcher(url)
            } catch {
                try? await Task.sleep(for: .seconds(1))
                continue
            }
            changes.add()
            while !Task.isCancelled {
                do {
                    if try await watcher.next(timeout: .seconds(5)) { changes.add() }
                } catch {
                    break
                }
            }
            await watcher.close()
        }
    }

    /// The open ledger, opened read-only on first use.
    private func openLedger() async throws(DashboardSourceError) -> any Ledger {
        if let open = ledger.withLock({ $0 }) { return open }
        do throws(LedgerError) {
            let opened = try await ledgerURL.open(LedgerOptions(access: .existing))
            let kept = ledger.withLock { current -> (any Ledger)? in
                if let current { return current }
                current = opened
                return nil
            }
            if let kept {
                await opened.close()
                return kept
            }
            return opened
        } catch {
            throw DashboardSourceError(.unavailable, "the ledger \(ledgerURL) cannot be read yet: \(error)")
        }
    }

    public func snapshot(line: String?, controlsEnabled: Bool) async throws -> Data {
        let ledger = try await openLedger()
        do throws(LedgerError) {
            return try await StationDashboardSnapshot.build(from: ledger, line: line, controlsEnabled: controlsEnabled).jsonData()
        } catch {
            throw DashboardSourceError(.unavailable, "the ledger \(ledgerURL) cannot be read: \(error)")
        }
    }

    public func deviceHistory(_ address: String) async throws -> Data? {
        let ledger = try await openLedger()
        do throws(LedgerError) {
            return try await DeviceHistory.load(device: address, from: ledger)?.jsonData()
        } catch {
            throw DashboardSourceError(.unavailable, "the ledger \(ledgerURL) cannot be read: \(error)")
        }
    }

    public func waitForChange(timeout: Duration) async throws -> Bool {
        let start = changes.value
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if changes.value != start { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return changes.value != start
    }

    public func resume(line: String, operator operatorName: String, reason: String?) async throws -> Bool {
        try await controls.resume(line: line, operator: operatorName, reason: reason)
    }

    public func release(device: String, operator operatorName: String, reason: String?) async throws -> Bool {
        try await controls.release(device: device, operator: operatorName, reason: reason)
    }
}

/// How many changes the watcher has seen, shared by every waiting page.
final class ChangeCount: Sendable {
    private let count = Mutex(0)

    var value: Int { count.withLock { $0 } }

    func add() { count.withLock { $0 += 1 } }
}
