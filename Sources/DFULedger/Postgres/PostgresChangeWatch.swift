import Foundation
import Synchronization

/// Watches a PostgreSQL ledger for committed writes: a connection of its own `LISTEN`s to
/// `dfukit_ledger`, on which every write transaction of the ledger (but a heartbeat) runs
/// `NOTIFY`. Waiting is `poll()` on the connection's socket, in slices of at most `slice` on a
/// thread of its own, so that a cancelled or closed watcher stops soon.
///
/// A connection lost (the server restarted, the backend was terminated) is re-established, then
/// reported as a change: what was committed meanwhile was not announced to this connection.
final class PostgresChangeWatch: Sendable {
    let location: String
    private let executor = BlockingExecutor(label: "dfukit.ledger.postgresql.watch")
    /// Touched only inside `executor.run`.
    private let connection: PostgresConnection
    /// How long one blocking wait lasts at most.
    let slice: Duration
    /// How long to wait between two tries to reconnect.
    let reconnectInterval: Duration
    /// Set when the connection broke and is not up again yet.
    private let broken = Mutex(false)
    /// Set by `close`: a failure is then final.
    private let closed = Mutex(false)

    private static let operation = "listen for the ledger's changes"

    init(_ location: LedgerURL.PostgresLocation, slice: Duration = .milliseconds(250),
         reconnectInterval: Duration = .seconds(1)) async throws(LedgerError) {
        let display = LedgerURL.postgresql(location).description
        self.location = display
        self.slice = slice
        self.reconnectInterval = reconnectInterval
        connection = try await executor.run { () throws(LedgerError) -> PostgresConnection in
            let connection = try PostgresConnection(connectionString: location.connectionString, location: display)
            try connection.query("LISTEN \(LedgerSchema.notifyChannel)", operation: Self.operation)
            return connection
        }
    }

    func next(timeout: Duration) async throws(LedgerError) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            let now = ContinuousClock.now
            if broken.withLock({ $0 }) {
                guard !closed.withLock({ $0 }) else {
                    throw LedgerError(.cannotOpen, ledger: location, operation: Self.operation, message: "the watcher is closed")
                }
                if try await reconnect() { return true }
                guard now < deadline, !Task.isCancelled else { return false }
                do {
                    try await Task.sleep(until: min(deadline, now + reconnectInterval), clock: .continuous)
                } catch {
                    return false
                }
                continue
            }
            let wait = max(.zero, min(slice, deadline - now))
            do {
                if try await executor.run({ () throws(LedgerError) -> Bool in
                    try self.connection.waitForNotifications(timeout: wait, operation: Self.operation)
                }) {
                    return true
                }
            } catch where error.kind == .cannotOpen && !closed.withLock({ $0 }) {
                broken.withLock { $0 = true }
                continue
            }
            guard ContinuousClock.now < deadline, !Task.isCancelled else { return false }
        }
    }

    /// One try to bring the connection back and listen again; true when it is up.
    private func reconnect() async throws(LedgerError) -> Bool {
        let up = try await executor.run { () throws(LedgerError) -> Bool in
            guard self.connection.reconnect() else { return false }
            do {
                try self.connection.query("LISTEN \(LedgerSchema.notifyChannel)", operation: Self.operation)
                return true
            } catch {
                return false
            }
        }
        if up { broken.withLock { $0 = false } }
        return up
    }

    func close() async {
        closed.withLock { $0 = true }
        let connection = connection
        _ = try? await executor.run { () throws(LedgerError) in connection.close() }
    }
}
