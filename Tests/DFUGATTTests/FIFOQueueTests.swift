import DFUGATT
import XCTest

final class FIFOQueueTests: XCTestCase {
    func testOldestFirstThenEmpty() {
        var queue = FIFOQueue<Int>()
        XCTAssertTrue(queue.isEmpty)
        XCTAssertNil(queue.popFirst())
        queue.append(1)
        queue.append(2)
        XCTAssertEqual(queue.count, 2)
        XCTAssertEqual(queue.first, 1)
        XCTAssertEqual(queue.popFirst(), 1)
        queue.append(3)
        XCTAssertEqual([queue.popFirst(), queue.popFirst(), queue.popFirst()], [2, 3, nil])
        XCTAssertTrue(queue.isEmpty)
    }

    /// Past 64 taken elements the storage is compacted; the order and count do not change.
    func testOrderKeptAcrossCompaction() {
        var queue = FIFOQueue<Int>()
        for value in 0..<200 { queue.append(value) }
        var taken: [Int] = []
        for _ in 0..<150 { taken.append(queue.popFirst()!) }
        for value in 200..<260 { queue.append(value) }
        XCTAssertEqual(queue.count, 110)
        while let value = queue.popFirst() { taken.append(value) }
        XCTAssertEqual(taken, Array(0..<260))
    }
}
