import DFUGATT
import XCTest

/// `AsyncBuffer` event by event: order, the end, the failure thrown once, waiting consumers
/// woken by elements and by the end, cancellation, deadlines.
final class AsyncBufferTests: XCTestCase {
    typealias Buffer = AsyncBuffer<String, TestFailure>

    func testElementsInOrderThenTheEnd() async {
        let buffer = Buffer()
        XCTAssertTrue(buffer.send("a"))
        XCTAssertTrue(buffer.send("b"))
        XCTAssertEqual(buffer.count, 2)
        buffer.finish()
        XCTAssertTrue(buffer.isFinished)
        XCTAssertFalse(buffer.send("late"), "refused once finished")
        var got: [String] = []
        for _ in 0..<4 { got.append(await outcome(buffer)) }
        XCTAssertEqual(got, ["a", "b", "end", "end"])
        XCTAssertNil(buffer.failure)
    }

    /// Elements sent before the failure come first; the failure is thrown once, then the end;
    /// a second finish changes nothing.
    func testFailureThrownOnceAfterTheQueuedElements() async {
        let buffer = Buffer()
        buffer.send("a")
        buffer.finish(throwing: TestFailure("link lost"))
        buffer.finish(throwing: TestFailure("closed"))
        buffer.finish()
        XCTAssertEqual(buffer.failure, TestFailure("link lost"))
        var got: [String] = []
        for _ in 0..<3 { got.append(await outcome(buffer)) }
        XCTAssertEqual(got, ["a", "failed: link lost", "end"])
        XCTAssertEqual(buffer.failure, TestFailure("link lost"), "kept for whoever asks later")
    }

    func testWaitingConsumerTakesTheNextElement() async {
        let buffer = Buffer()
        let consumer = Task { await outcome(buffer) }
        await eventually("the consumer waits") { buffer.waitingCount == 1 }
        buffer.send("a")
        let got = await consumer.value
        XCTAssertEqual(got, "a")
        XCTAssertEqual(buffer.count, 0, "handed over, not queued")
        XCTAssertEqual(buffer.waitingCount, 0)
    }

    func testWaitingConsumersServedInTheOrderTheyCame() async {
        let buffer = Buffer()
        let first = Task { await outcome(buffer) }
        await eventually("the first waits") { buffer.waitingCount == 1 }
        let second = Task { await outcome(buffer) }
        await eventually("the second waits") { buffer.waitingCount == 2 }
        buffer.send("a")
        buffer.send("b")
        let got = [await first.value, await second.value]
        XCTAssertEqual(got, ["a", "b"])
    }

    /// The oldest waiting consumer gets the failure, the others the end.
    func testFinishWakesEveryWaitingConsumer() async {
        let buffer = Buffer()
        let first = Task { await outcome(buffer) }
        await eventually("the first waits") { buffer.waitingCount == 1 }
        let second = Task { await outcome(buffer) }
        await eventually("the second waits") { buffer.waitingCount == 2 }
        buffer.finish(throwing: TestFailure("link lost"))
        let got = [await first.value, await second.value]
        XCTAssertEqual(got, ["failed: link lost", "end"])
        let later = await outcome(buffer)
        XCTAssertEqual(later, "end", "thrown once")
    }

    /// `next()` waits through cancellation: the producer's last word still arrives.
    func testCancelledConsumerStillReceivesTheLastWord() async {
        let buffer = Buffer()
        let consumer = Task { [await outcome(buffer), await outcome(buffer)] }
        await eventually("the consumer waits") { buffer.waitingCount == 1 }
        consumer.cancel()
        try? await Task.sleep(for: .milliseconds(20))
        XCTAssertEqual(buffer.waitingCount, 1, "still waiting")
        buffer.send("outcome")
        buffer.finish(throwing: TestFailure("cancelled"))
        let got = await consumer.value
        XCTAssertEqual(got, ["outcome", "failed: cancelled"])
    }

    /// `next(until:)` gives up when its task is cancelled; what comes later waits for the next consumer.
    func testCancelledBoundedWaitGivesUp() async {
        let buffer = Buffer()
        let consumer = Task { await receipt(buffer, until: nil) }
        await eventually("the consumer waits") { buffer.waitingCount == 1 }
        consumer.cancel()
        let got = await consumer.value
        XCTAssertEqual(got, "gave up")
        XCTAssertEqual(buffer.waitingCount, 0)
        buffer.send("a")
        XCTAssertEqual(buffer.count, 1, "queued for the next consumer")
        let next = await outcome(buffer)
        XCTAssertEqual(next, "a")
    }

    /// A task already cancelled still takes what is ready, and gives up at once otherwise.
    func testAlreadyCancelledBoundedWaitTakesWhatIsReady() async {
        let buffer = Buffer()
        buffer.send("a")
        let got = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return [await receipt(buffer, until: nil), await receipt(buffer, until: nil)]
        }.value
        XCTAssertEqual(got, ["a", "gave up"])
        XCTAssertEqual(buffer.waitingCount, 0)
    }

    func testDeadlinePassesWithNothingSent() async {
        let buffer = Buffer()
        let start = ContinuousClock.now
        let got = await receipt(buffer, until: start + .milliseconds(50))
        XCTAssertEqual(got, "gave up")
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - start, .milliseconds(50))
        XCTAssertEqual(buffer.waitingCount, 0)
        let past = await receipt(buffer, until: start)
        XCTAssertEqual(past, "gave up", "a deadline already past gives up at once")
    }

    /// An element before the deadline wins, and its timer is gone: a later element is queued.
    func testElementBeforeTheDeadline() async {
        let buffer = Buffer()
        let consumer = Task { await receipt(buffer, until: .now + .seconds(10)) }
        await eventually("the consumer waits") { buffer.waitingCount == 1 }
        buffer.send("a")
        let got = await consumer.value
        XCTAssertEqual(got, "a")
        buffer.send("b")
        let past = await receipt(buffer, until: .now - .seconds(1))
        XCTAssertEqual(past, "b", "what is ready is taken even past the deadline")
    }

    /// A bounded wait sees the end as `next()` does: the failure once, then `.end`.
    func testBoundedWaitAtTheEnd() async {
        let buffer = Buffer()
        let consumer = Task { await receipt(buffer, until: .now + .seconds(10)) }
        await eventually("the consumer waits") { buffer.waitingCount == 1 }
        buffer.finish(throwing: TestFailure("link lost"))
        let got = await consumer.value
        XCTAssertEqual(got, "failed: link lost")
        let later = await receipt(buffer, until: .now + .seconds(10))
        XCTAssertEqual(later, "end")
    }

    /// `waitForEnd` returns the failure (nil for a normal end) and takes no element.
    func testWaitForEnd() async {
        let buffer = Buffer()
        buffer.send("a")
        let watcher = Task { await buffer.waitForEnd() }
        try? await Task.sleep(for: .milliseconds(10))
        buffer.finish(throwing: TestFailure("link lost"))
        let end = await watcher.value
        XCTAssertEqual(end, TestFailure("link lost"))
        let again = await buffer.waitForEnd()
        XCTAssertEqual(again, TestFailure("link lost"), "at once after the end")
        XCTAssertEqual(buffer.count, 1)
        let normal = Buffer()
        normal.finish()
        let normalEnd = await normal.waitForEnd()
        XCTAssertNil(normalEnd)
    }

    /// A buffer that receives one element carries one answer to one caller, whichever comes first.
    func testOneAnswerBeforeOrAfterTheCallerWaits() async {
        let early = AsyncBuffer<Int, Never>()
        early.send(1)
        let earlyAnswer = await early.next()
        XCTAssertEqual(earlyAnswer, 1)
        let late = AsyncBuffer<Int, Never>()
        let caller = Task { await late.next() }
        await eventually("the caller waits") { late.waitingCount == 1 }
        late.send(2)
        let lateAnswer = await caller.value
        XCTAssertEqual(lateAnswer, 2)
    }
}

/// Calls `next()` and says what it got, the failure included.
private func outcome(_ buffer: AsyncBuffer<String, TestFailure>) async -> String {
    do throws(TestFailure) {
        return try await buffer.next() ?? "end"
    } catch {
        return "failed: \(error.name)"
    }
}

/// Calls `next(until:)` and says what it got.
private func receipt(_ buffer: AsyncBuffer<String, TestFailure>, until deadline: ContinuousClock.Instant?) async -> String {
    do throws(TestFailure) {
        switch try await buffer.next(until: deadline) {
        case let .element(element): return element
        case .end: return "end"
        case .gaveUp: return "gave up"
        }
    } catch {
        return "failed: \(error.name)"
    }
}
