/// Runs one operation at a time, in arrival order: what a transport uses around scans and
/// connection attempts, since an adapter or controller makes one connection at a time.
public actor GATTSerialGate {
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// A gate with nothing running.
    public init() {}

    /// Runs `operation` once every operation that arrived before it has finished, and returns its
    /// result (or rethrows its error).
    public func serialized<T: Sendable>(_ operation: () async throws(GATTError) -> T) async throws(GATTError) -> T {
        while busy {
            await withCheckedContinuation { waiters.append($0) }
        }
        busy = true
        defer {
            busy = false
            if !waiters.isEmpty { waiters.removeFirst().resume() }
        }
        return try await operation()
    }
}
