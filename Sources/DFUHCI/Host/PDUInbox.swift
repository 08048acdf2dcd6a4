import Synchronization

/// PDUs received on one L2CAP channel, waiting for a reader; finished (with the reason) when the
/// link goes away. Thread-safe and synchronous on the delivering side, so the host can deliver
/// without suspending and PDUs keep their order.
final class PDUInbox: Sendable {
    private struct State {
        var buffer: [[UInt8]] = []
        var receivers: [(id: UInt64, continuation: CheckedContinuation<[UInt8]?, Never>)] = []
        var endWaiters: [CheckedContinuation<HCIError, Never>] = []
        var end: HCIError?
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    func deliver(_ pdu: [UInt8]) {
        let receiver = state.withLock { state -> CheckedContinuation<[UInt8]?, Never>? in
            guard state.end == nil else { return nil }
            if !state.receivers.isEmpty { return state.receivers.removeFirst().continuation }
            state.buffer.append(pdu)
            return nil
        }
        receiver?.resume(returning: pdu)
    }

    func finish(_ error: HCIError) {
        let (receivers, endWaiters) = state.withLock { state in
            guard state.end == nil else { return ([CheckedContinuation<[UInt8]?, Never>](), [CheckedContinuation<HCIError, Never>]()) }
            state.end = error
            defer {
                state.receivers = []
                state.endWaiters = []
            }
            return (state.receivers.map(\.continuation), state.endWaiters)
        }
        for receiver in receivers { receiver.resume(returning: nil) }
        for waiter in endWaiters { waiter.resume(returning: error) }
    }

    var end: HCIError? { state.withLock { $0.end } }

    /// The next PDU; PDUs that arrived before the link ended are still returned, then nil.
    /// Cancelling the calling task returns nil.
    func receive() async -> [UInt8]? {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<[UInt8]?, Never>) in
                let immediate: [UInt8]?? = state.withLock { state in
                    if !state.buffer.isEmpty { return .some(state.buffer.removeFirst()) }
                    if state.end != nil || Task.isCancelled { return .some(nil) }
                    state.receivers.append((id, continuation))
                    return .none
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let receiver = state.withLock { state -> CheckedContinuation<[UInt8]?, Never>? in
                guard let index = state.receivers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.receivers.remove(at: index).continuation
            }
            receiver?.resume(returning: nil)
        }
    }

    func waitForEnd() async -> HCIError {
        await withCheckedContinuation { (continuation: CheckedContinuation<HCIError, Never>) in
            let end = state.withLock { state -> HCIError? in
                if let end = state.end { return end }
                state.endWaiters.append(continuation)
                return nil
            }
            if let end { continuation.resume(returning: end) }
        }
    }
}
