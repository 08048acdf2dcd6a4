import DFUStation
import Foundation
import Synchronization
import XCTest

/// What a `DashboardEventStream` sent, with when, read one by one.
final class EventCollector: Sendable {
    private struct State {
        var received: [(ServerSentEvent, ContinuousClock.Instant)] = []
        var read = 0
        /// How many more sends the client accepts; the send after them answers false (it left).
        var accepting: Int
    }

    private let state: Mutex<State>

    init(accepting: Int = .max) {
        state = Mutex(State(accepting: accepting))
    }

    /// The `send` the stream is given.
    var send: @Sendable (ServerSentEvent) async -> Bool {
        { [self] event in
            state.withLock { state in
                guard state.accepting > 0 else { return false }
                state.accepting -= 1
                state.received.append((event, ContinuousClock.now))
                return true
            }
        }
    }

    /// The next message, or a failure after `timeout`.
    func next(timeout: Duration = .seconds(5), file: StaticString = #filePath, line: UInt = #line) async throws
        -> (event: ServerSentEvent, at: ContinuousClock.Instant) {
        let deadline = ContinuousClock.now + timeout
        while true {
            let next = state.withLock { state -> (ServerSentEvent, ContinuousClock.Instant)? in
                guard state.read < state.received.count else { return nil }
                state.read += 1
                return state.received[state.read - 1]
            }
            if let next { return (next.0, next.1) }
            guard ContinuousClock.now < deadline else {
                XCTFail("no event within \(timeout)", file: file, line: line)
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}
