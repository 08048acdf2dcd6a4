import Synchronization

/// A ledger kept in memory for one process: the default of `DFUKit.batch`. It keeps a device
/// from being flashed twice within the process and keeps every attempt (`records`), but
/// forgets all when the process ends; a provisioning line that must survive restarts or share
/// devices between stations uses `dfukit batch run` with its SQLite or PostgreSQL ledger.
public final class MemoryBatchLedger: BatchLedger {
    private struct State {
        var claimed: Set<String> = []
        var done: Set<String> = []
        var records: [AttemptRecord] = []
    }

    private let state = Mutex(State())

    /// An empty ledger.
    public init() {}

    /// Every attempt recorded, in order.
    public var records: [AttemptRecord] { state.withLock { $0.records } }

    /// False when the device is done or claimed already.
    public func claim(device: String) async throws -> Bool {
        state.withLock { state in
            guard !state.done.contains(device), !state.claimed.contains(device) else { return false }
            state.claimed.insert(device)
            return true
        }
    }

    /// Nothing to extend: claims in memory do not expire.
    public func heartbeat(device: String) async throws {
        let held = state.withLock { $0.claimed.contains(device) }
        if !held { throw BatchLedgerError(.claimLost, "\(device) is not claimed") }
    }

    /// Keeps the attempt; a succeeded or skipped one marks the device done.
    public func record(_ attempt: AttemptRecord) async throws {
        state.withLock { state in
            state.records.append(attempt)
            if attempt.result == .succeeded || attempt.result == .skipped {
                state.done.insert(attempt.device)
                state.claimed.remove(attempt.device)
            }
        }
    }

    /// Gives the claim back.
    public func release(device: String) async throws {
        _ = state.withLock { $0.claimed.remove(device) }
    }
}
