/// Elements in arrival order, oldest first; taking one is O(1) amortized (the head index moves,
/// the storage is compacted now and then). A plain value: what a pure state machine keeps, and
/// what `AsyncBuffer` keeps under its lock.
package struct FIFOQueue<Element> {
    private var storage: [Element] = []
    private var head = 0

    /// An empty queue.
    package init() {}

    /// Elements not yet taken.
    package var count: Int { storage.count - head }

    package var isEmpty: Bool { head == storage.count }

    /// The oldest element, still queued.
    package var first: Element? { head < storage.count ? storage[head] : nil }

    /// Every element not yet taken, oldest first.
    package var elements: [Element] { Array(storage[head...]) }

    package mutating func append(_ element: Element) { storage.append(element) }

    /// Takes the oldest element.
    package mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64, head * 2 > storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }
}

extension FIFOQueue: Sendable where Element: Sendable {}
