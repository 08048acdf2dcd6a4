import DFUGATT
import Synchronization

/// PDUs from the reader thread, waiting for `receive()`; finished with the reason the link
/// ended. Delivery is synchronous (the reader thread never suspends) and keeps order.
final class PDUQueue: Sendable {
    private struct State {
        var buffer: [[UInt8]] = []
        var waiter: CheckedContinuation<Result<[UInt8], GATTError>, Never>?
        var end: GATTError?
    }

    private let state = Mutex(State())

    func deliver(_ pdu: [UInt8]) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<[UInt8], GATTError>, Never>? in
            guard state.end == nil else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.buffer.append(pdu)
            return nil
        }
        waiter?.resume(returning: .success(pdu))
    }

    /// Ends the queue; PDUs already queued are still delivered first. The first reason wins.
    func finish(_ error: GATTError) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<[UInt8], GATTError>, Never>? in
            guard state.end == nil else { return nil }
            state.end = error
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: .failure(error))
    }

    var end: GATTError? { state.withLock { $0.end } }

    func next() async throws(GATTError) -> [UInt8] {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<[UInt8], GATTError>, Never>) in
            let immediate = state.withLock { state -> Result<[UInt8], GATTError>? in
                if !state.buffer.isEmpty { return .success(state.buffer.removeFirst()) }
                if let end = state.end { return .failure(end) }
                precondition(state.waiter == nil, "receive() called by two tasks at once")
                state.waiter = continuation
                return nil
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
        return try result.get()
    }
}
