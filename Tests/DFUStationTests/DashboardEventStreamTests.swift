import DFUStation
import Foundation
import XCTest

/// The event stream without a socket: the snapshot at once, again after a change (at most once
/// per interval), keep-alives when nothing changes, the source's failures as `unavailable`, and
/// an end when the client is gone.
final class DashboardEventStreamTests: XCTestCase {
    private let source = FakeDashboardSource()

    private func timing(minimum: Duration = .milliseconds(20), keepAlive: Duration = .seconds(30)) -> DashboardEventStream.Timing {
        DashboardEventStream.Timing(minimumInterval: minimum, keepAlive: keepAlive, afterFailure: .milliseconds(50),
                                    reconnect: .seconds(2))
    }

    private func start(_ collector: EventCollector, timing: DashboardEventStream.Timing) -> Task<Void, Never> {
        let stream = DashboardEventStream(source: source, line: "east", controlsEnabled: true, timing: timing)
        let send = collector.send
        return Task { await stream.run(send) }
    }

    private func snapshotData(_ event: ServerSentEvent, file: StaticString = #filePath, line: UInt = #line) -> String? {
        guard case let .event(name, data) = event, name == "snapshot" else {
            XCTFail("not a snapshot: \(event)", file: file, line: line)
            return nil
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Waits (briefly) until the stream waits for a change.
    private func untilWaiting() async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while source.waiting == 0 {
            guard ContinuousClock.now < deadline else { return XCTFail("the stream never waited for a change") }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    func testSendsTheSnapshotAtOnceThenAfterEachChange() async throws {
        let collector = EventCollector()
        let task = start(collector, timing: timing())
        let retry = try await collector.next().event
        XCTAssertEqual(retry, .retry(milliseconds: 2000))
        let first = try await collector.next().event
        XCTAssertEqual(snapshotData(first), String(decoding: source.snapshotJSON, as: UTF8.self))
        XCTAssertEqual(source.snapshotCalls.first?.line, "east")
        XCTAssertEqual(source.snapshotCalls.first?.controlsEnabled, true)

        try await untilWaiting()
        source.snapshotJSON = Data(#"{"version":1,"second":true}"#.utf8)
        source.change()
        let second = try await collector.next().event
        XCTAssertEqual(snapshotData(second), #"{"version":1,"second":true}"#)
        task.cancel()
        await task.value
    }

    func testAChangeWhileASnapshotIsReadIsNotLost() async throws {
        // The wait for the next change starts before the snapshot is read: a change that lands
        // between the two still ends that wait.
        let collector = EventCollector()
        let task = start(collector, timing: timing())
        _ = try await collector.next()
        _ = try await collector.next()
        source.change()  // whether or not the stream waits yet, it has begun to watch
        let next = try await collector.next(timeout: .seconds(2)).event
        XCTAssertNotNil(snapshotData(next))
        task.cancel()
        await task.value
    }

    func testKeepAliveWhenNothingChanges() async throws {
        let collector = EventCollector()
        let task = start(collector, timing: timing(keepAlive: .milliseconds(50)))
        _ = try await collector.next()
        _ = try await collector.next()
        let first = try await collector.next().event
        let second = try await collector.next().event
        XCTAssertEqual([first, second], [.keepAlive, .keepAlive])
        task.cancel()
        await task.value
    }

    func testAtMostOneSnapshotPerInterval() async throws {
        let collector = EventCollector()
        let task = start(collector, timing: timing(minimum: .milliseconds(150)))
        _ = try await collector.next()
        var times = [try await collector.next().at]
        let source = source
        let storm = Task {
            while !Task.isCancelled {
                source.change()
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        for _ in 0..<3 { times.append(try await collector.next().at) }
        storm.cancel()
        task.cancel()
        await task.value
        for (earlier, later) in zip(times, times.dropFirst()) {
            XCTAssertGreaterThanOrEqual(later - earlier, .milliseconds(145), "\(times)")
        }
    }

    func testASnapshotTheSourceCannotGiveIsSentAsUnavailable() async throws {
        source.snapshotFailure = DashboardSourceError(.unavailable, "dashboard data not wired yet")
        let collector = EventCollector()
        let task = start(collector, timing: timing())
        _ = try await collector.next()
        let unavailable = try await collector.next().event
        XCTAssertEqual(unavailable, .event(name: "unavailable", data: Data(#"{"error":"dashboard data not wired yet"}"#.utf8)))
        source.snapshotFailure = nil
        try await untilWaiting()
        source.change()
        let after = try await collector.next().event
        XCTAssertNotNil(snapshotData(after), "the stream goes on")
        task.cancel()
        await task.value
    }

    func testEndsWhenTheClientIsGoneAndStopsWatching() async throws {
        let collector = EventCollector(accepting: 2)  // retry and the first snapshot
        let task = start(collector, timing: timing(keepAlive: .milliseconds(30)))
        _ = try await collector.next()
        _ = try await collector.next()
        await task.value  // the keep-alive is refused: the stream ends by itself
        let deadline = ContinuousClock.now + .seconds(2)
        while source.waiting > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        XCTAssertEqual(source.waiting, 0, "no wait left behind")
    }
}
