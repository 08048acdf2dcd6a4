/// The timers the host's machines ask for (`startTimer` / `cancelTimer` actions), by the id the
/// machine gave each: a task that sleeps, then tells the host the timer fired. One table per
/// machine; a timer that fired or was cancelled is gone, so a late wake-up is told apart.
struct HostTimers {
    private var tasks: [UInt64: Task<Void, Never>] = [:]

    /// Starts timer `id`: `fire` runs after `duration` unless the timer is cancelled first.
    mutating func start(_ id: UInt64, after duration: Duration, fire: @escaping @Sendable () async -> Void) {
        tasks[id] = Task {
            try? await Task.sleep(for: duration)
            guard !Task.isCancelled else { return }
            await fire()
        }
    }

    /// Cancels timer `id`, if it is still running.
    mutating func cancel(_ id: UInt64) {
        tasks.removeValue(forKey: id)?.cancel()
    }

    /// Whether timer `id` was still running (its firing counts); it is gone afterwards.
    mutating func fired(_ id: UInt64) -> Bool {
        tasks.removeValue(forKey: id) != nil
    }
}
