/// Runs one operation at a time, in arrival order: what a transport uses around scans and
/// connection attempts, since an adapter or controller makes one connection at a time.
public actor GATTSerialGate {
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    public init() {}

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
