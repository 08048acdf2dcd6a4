import Dispatch

/// Runs a database connection's blocking calls (disk syncs, server round trips) one at a time on a
/// thread of its own, so that tasks awaiting the ledger never hold Swift's cooperative threads.
///
/// Being serial, it is also what confines a connection to one thread at a time: a connection is
/// touched only from inside `run`.
final class BlockingExecutor: Sendable {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// Runs `body` on the executor's thread after every call submitted before it, and returns its
    /// result.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws(LedgerError) -> T) async throws(LedgerError) -> T {
        let result: Result<T, LedgerError> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: Result { () throws(LedgerError) -> T in try body() })
            }
        }
        return try result.get()
    }
}
