/// Notifications and indications received and not yet taken, oldest first; taking one is
/// O(1) amortized (the head index moves, the storage is compacted now and then).
struct ATTValueQueue: Sendable {
    private var storage: [ATTReceivedValue] = []
    private var head = 0

    var count: Int { storage.count - head }

    mutating func append(_ value: ATTReceivedValue) { storage.append(value) }

    mutating func popFirst() -> ATTReceivedValue? {
        guard head < storage.count else { return nil }
        let value = storage[head]
        head += 1
        if head > 64, head * 2 > storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return value
    }
}
