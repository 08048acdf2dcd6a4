/// Where the answer to one request or wait meets its caller, whichever comes first: the
/// machine may complete an ID while the caller is still on its way to waiting for it.
struct HCIOutcomeSlots<Value: Sendable>: Sendable {
    private var waiting: [UInt64: CheckedContinuation<Value, Never>] = [:]
    private var early: [UInt64: Value] = [:]

    /// Resumes the caller of `id`, or keeps `value` until it comes.
    mutating func complete(_ id: UInt64, with value: Value) {
        if let continuation = waiting.removeValue(forKey: id) {
            continuation.resume(returning: value)
        } else {
            early[id] = value
        }
    }

    /// Resumes `continuation` at once when `id` is already complete, or when it will be.
    mutating func wait(for id: UInt64, _ continuation: CheckedContinuation<Value, Never>) {
        if let value = early.removeValue(forKey: id) {
            continuation.resume(returning: value)
        } else {
            waiting[id] = continuation
        }
    }
}
