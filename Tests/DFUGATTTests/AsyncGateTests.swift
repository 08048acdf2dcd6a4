import DFUGATT
import Synchronization
import XCTest

/// `AsyncGate` turn by turn: one holder, waiters in arrival order, cancelled waiters keep their place.
final class AsyncGateTests: XCTestCase {
    func testTurnsInArrivalOrder() async {
        let gate = AsyncGate()
        let journal = Journal()
        await gate.acquire()
        XCTAssertTrue(gate.isHeld)
        let first = Task {
            await gate.acquire()
            await journal.note("first")
            gate.release()
        }
        await eventually("the first waits") { gate.waitingCount == 1 }
        let second = Task {
            await gate.acquire()
            await journal.note("second")
            gate.release()
        }
        await eventually("the second waits") { gate.waitingCount == 2 }
        let noted = await journal.entries
        XCTAssertEqual(noted, [], "nobody runs while the turn is held")
        gate.release()
        await first.value
        await second.value
        let entries = await journal.entries
        XCTAssertEqual(entries, ["first", "second"])
        XCTAssertFalse(gate.isHeld)
        XCTAssertEqual(gate.waitingCount, 0)
    }

    /// A cancelled task may need its turn to clean up: it keeps its place and gets it.
    func testCancelledWaiterStillGetsItsTurn() async {
        let gate = AsyncGate()
        await gate.acquire()
        let waiter = Task {
            await gate.acquire()
            let cancelled = Task.isCancelled
            gate.release()
            return cancelled
        }
        await eventually("the waiter waits") { gate.waitingCount == 1 }
        waiter.cancel()
        try? await Task.sleep(for: .milliseconds(20))
        XCTAssertEqual(gate.waitingCount, 1, "still in line")
        gate.release()
        let ranCancelled = await waiter.value
        XCTAssertTrue(ranCancelled)
        XCTAssertFalse(gate.isHeld)
    }

    /// An operation that throws hands the turn on; its error comes back typed.
    func testSerializedRethrowsAndHandsTheTurnOn() async {
        let gate = AsyncGate()
        do {
            try await gate.serialized { () throws(TestFailure) in throw TestFailure("refused") }
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error, TestFailure("refused"))
        }
        XCTAssertFalse(gate.isHeld)
        let value = await gate.serialized { 42 }
        XCTAssertEqual(value, 42)
    }

    func testSerializedOperationsNeverOverlap() async {
        let gate = AsyncGate()
        let running = Overlap()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    await gate.serialized {
                        running.state.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                        try? await Task.sleep(for: .milliseconds(2))
                        running.state.withLock { $0.now -= 1 }
                    }
                }
            }
        }
        XCTAssertEqual(running.state.withLock { $0.most }, 1)
        XCTAssertFalse(gate.isHeld)
    }
}

/// How many operations run at once, and the most that ever did.
private final class Overlap: Sendable {
    let state = Mutex((now: 0, most: 0))
}
