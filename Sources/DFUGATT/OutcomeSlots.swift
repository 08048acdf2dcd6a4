/// Where the answer to one request meets its caller, whichever comes first: a state machine's
/// driver may complete an ID while the caller is still on its way to waiting for it. Confined
/// to one actor (the driver's); used by the ATT client and the HCI host.
package struct OutcomeSlots<Value: Sendable>: Sendable {
    private var waiting: [UInt64: CheckedContinuation<Value, Never>] = [:]
    private var early: [UInt64: Value] = [:]

    /// No caller waiting and no answer kept.
    package init() {}

    /// Resumes the caller of `id`, or keeps `value` until it comes.
    package mutating func complete(_ id: UInt64, with value: Value) {
        if let continuation = waiting.removeValue(forKey: id) {
            continuation.resume(returning: value)
        } else {
            early[id] = value
        }
    }

    /// Resumes `continuation` at once when `id` is already complete, or when it will be.
    package mutating func wait(for id: UInt64, _ continuation: CheckedContinuation<Value, Never>) {
        if let value = early.removeValue(forKey: id) {
            continuation.resume(returning: value)
        } else {
            waiting[id] = continuation
        }
    }
}
