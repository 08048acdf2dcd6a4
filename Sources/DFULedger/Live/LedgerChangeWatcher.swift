import Foundation

/// Tells when a ledger has changed: a station recorded an attempt, published a device's progress,
/// announced itself, a line was halted or resumed... whichever process wrote it. The station
/// dashboard waits on it, then builds a new `StationDashboardSnapshot`.
///
/// On PostgreSQL it `LISTEN`s to `dfukit_ledger` (every write transaction but a heartbeat runs
/// `NOTIFY` on it) on a connection of its own, and survives a server restart by reconnecting
/// (a reconnection counts as a change: writes committed meanwhile were not announced). On
/// SQLite it reads `PRAGMA data_version` on a connection of its own every 250 ms. The waiting
/// runs on a thread of its own, never on Swift's cooperative threads.
///
/// ```swift
/// let watcher = try await LedgerChangeWatcher(url)
/// while !Task.isCancelled {
///     if try await watcher.next(timeout: .seconds(15)) { send(try await StationDashboardSnapshot.build(...)) }
///     else { sendKeepAlive() }
/// }
/// await watcher.close()
/// ```
public final class LedgerChangeWatcher: Sendable {
    private enum Source: Sendable {
        case sqlite(SQLiteChangeWatch)
        case postgresql(PostgresChangeWatch)
    }

    private let source: Source

    /// The ledger watched, without a password.
    public var location: String {
        switch source {
        case .sqlite(let watch): return watch.location
        case .postgresql(let watch): return watch.location
        }
    }

    /// Opens a connection to the ledger at `url` (an existing one: a missing SQLite file is
    /// `cannotOpen`) and starts watching; changes from now on are reported by `next(timeout:)`.
    public init(_ url: LedgerURL) async throws(LedgerError) {
        switch url {
        case .sqlite(let path): source = .sqlite(try await SQLiteChangeWatch(path: path))
        case .postgresql(let location): source = .postgresql(try await PostgresChangeWatch(location))
        }
    }

    /// Waits up to `timeout` for a change committed since the last call (or since the watcher
    /// was made); true when there was one (several changes count as one), false when the time
    /// ran out or the task was cancelled. A PostgreSQL server that is down is tried again every
    /// second meanwhile (false until it is back). Throws when the watcher is closed, or a SQLite
    /// file cannot be read.
    public func next(timeout: Duration) async throws(LedgerError) -> Bool {
        switch source {
        case .sqlite(let watch): return try await watch.next(timeout: timeout)
        case .postgresql(let watch): return try await watch.next(timeout: timeout)
        }
    }

    /// Closes the watcher's connection; later calls to `next(timeout:)` throw `cannotOpen`.
    public func close() async {
        switch source {
        case .sqlite(let watch): await watch.close()
        case .postgresql(let watch): await watch.close()
        }
    }
}
