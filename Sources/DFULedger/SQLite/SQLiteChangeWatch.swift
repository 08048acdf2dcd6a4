import Foundation
import Synchronization

/// Watches a SQLite ledger for commits of any connection, in this process or another, through
/// `PRAGMA data_version` on a connection of its own: its value changes when another connection
/// has committed since the last read. SQLite has no notification across processes, so the value
/// is read every `interval` (a cheap read of the shared WAL index, no lock taken).
final class SQLiteChangeWatch: Sendable {
    let location: String
    private let executor = BlockingExecutor(label: "dfukit.ledger.sqlite.watch")
    /// Touched only inside `executor.run`.
    private let connection: SQLiteConnection
    /// The last value read.
    private let lastVersion = Mutex<Int64?>(nil)
    /// How often the version is read while waiting.
    let interval: Duration

    init(path: String, interval: Duration = .milliseconds(250)) async throws(LedgerError) {
        location = "sqlite:\(path)"
        self.interval = interval
        guard path != ":memory:" else {
            throw LedgerError(.invalidArgument, ledger: "sqlite:\(path)", operation: "watch the ledger for changes",
                              message: "an in-memory ledger cannot be watched from another connection; name a file")
        }
        let location = location
        if !FileManager.default.fileExists(atPath: path) {
            throw LedgerError(.cannotOpen, ledger: location, operation: "open the database",
                              message: "no such file (a ledger is created by 'dfukit batch run')")
        }
        connection = try await executor.run { () throws(LedgerError) -> SQLiteConnection in
            try SQLiteConnection(path: path, create: false, busyTimeout: .seconds(5))
        }
        _ = try await changed()
    }

    /// Reads the data version; true when it differs from the last one read.
    private func changed() async throws(LedgerError) -> Bool {
        try await executor.run { () throws(LedgerError) -> Bool in
            let version = try self.connection.query("PRAGMA data_version", operation: "watch the ledger for changes")
                .first?.first?.integer
            return self.lastVersion.withLock { last in
                defer { last = version }
                return last != nil && version != last
            }
        }
    }

    func next(timeout: Duration) async throws(LedgerError) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            if try await changed() { return true }
            let now = ContinuousClock.now
            guard now < deadline, !Task.isCancelled else { return false }
            do {
                try await Task.sleep(until: min(deadline, now + interval), clock: .continuous)
            } catch {
                return false
            }
        }
    }

    func close() async {
        let connection = connection
        _ = try? await executor.run { () throws(LedgerError) in connection.close() }
    }
}
