import Foundation

/// One client's `/events`: `event: snapshot` with the snapshot at once, then again after each
/// change of the ledger (at most once per `Timing.minimumInterval`), and `: keep-alive` after
/// `Timing.keepAlive` without a change. A snapshot the source cannot give is sent as
/// `event: unavailable` with `{"error": "..."}` (the page keeps its last snapshot and says why),
/// and the stream goes on.
public struct DashboardEventStream: Sendable {
    /// The stream's pace.
    public struct Timing: Sendable, Equatable {
        /// The least time between two snapshots (250 ms: at most 4 a second).
        public var minimumInterval: Duration
        /// The longest silence before a keep-alive (15 s).
        public var keepAlive: Duration
        /// How long to wait before watching again after the change watcher failed (5 s).
        public var afterFailure: Duration
        /// What the browser waits before it reconnects a broken stream (`retry:`, 2 s).
        public var reconnect: Duration

        /// A pace of your own (tests make it fast).
        public init(minimumInterval: Duration, keepAlive: Duration, afterFailure: Duration, reconnect: Duration) {
            self.minimumInterval = minimumInterval
            self.keepAlive = keepAlive
            self.afterFailure = afterFailure
            self.reconnect = reconnect
        }

        /// The contract's pace: 4 snapshots a second at most, a keep-alive every 15 s.
        public static let standard = Timing(minimumInterval: .milliseconds(250), keepAlive: .seconds(15),
                                            afterFailure: .seconds(5), reconnect: .seconds(2))
    }

    /// Where the snapshots come from.
    public let source: any DashboardSource
    /// The line the snapshots cover, or nil for every line.
    public let line: String?
    /// What the snapshots' `controls.enabled` says.
    public let controlsEnabled: Bool
    /// The pace.
    public let timing: Timing

    /// A stream of `source`'s snapshots.
    public init(source: any DashboardSource, line: String?, controlsEnabled: Bool, timing: Timing = .standard) {
        self.source = source
        self.line = line
        self.controlsEnabled = controlsEnabled
        self.timing = timing
    }

    /// Sends the stream's messages through `send` until `send` returns false (the client is gone)
    /// or the task is cancelled.
    public func run(_ send: @escaping @Sendable (ServerSentEvent) async -> Bool) async {
        let clock = ContinuousClock()
        let milliseconds = Int((timing.reconnect / .milliseconds(1)).rounded())
        guard await send(.retry(milliseconds: milliseconds)) else { return }
        // The wait starts before each snapshot is read: a change committed while it is read ends
        // the next wait at once instead of waiting for another change.
        var watch = startWatching()
        defer { watch.cancel() }
        guard await sendSnapshot(send) else { return }
        var lastSnapshot = clock.now
        while !Task.isCancelled {
            let current = watch
            let outcome = await withTaskCancellationHandler { await current.result } onCancel: { current.cancel() }
            guard !Task.isCancelled else { return }
            switch outcome {
            case .success(true):
                do { try await clock.sleep(until: lastSnapshot.advanced(by: timing.minimumInterval)) } catch { return }
                watch = startWatching()
                guard await sendSnapshot(send) else { return }
                lastSnapshot = clock.now
            case .success(false):
                watch = startWatching()
                guard await send(.keepAlive) else { return }
            case .failure(let error):
                guard await send(Self.unavailable("cannot watch the ledger for changes: \(Self.message(of: error))")) else { return }
                do { try await clock.sleep(for: timing.afterFailure) } catch { return }
                watch = startWatching()
                guard await sendSnapshot(send) else { return }
                lastSnapshot = clock.now
            }
        }
    }

    private func startWatching() -> Task<Bool, any Error> {
        let source = source
        let timeout = timing.keepAlive
        return Task { try await source.waitForChange(timeout: timeout) }
    }

    /// Reads and sends one snapshot, or `event: unavailable` when the source cannot give it.
    private func sendSnapshot(_ send: @Sendable (ServerSentEvent) async -> Bool) async -> Bool {
        do {
            let snapshot = try await source.snapshot(line: line, controlsEnabled: controlsEnabled)
            return await send(.event(name: "snapshot", data: snapshot))
        } catch {
            return await send(Self.unavailable(Self.message(of: error)))
        }
    }

    /// `event: unavailable` with `{"error": message}`.
    static func unavailable(_ message: String) -> ServerSentEvent {
        .event(name: "unavailable", data: JSONScalar.encode(["error": .string(message)]))
    }

    private static func message(of error: any Error) -> String {
        (error as? DashboardSourceError)?.message ?? "\(error)"
    }
}
