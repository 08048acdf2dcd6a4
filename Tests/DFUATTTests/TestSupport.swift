import DFUATT
import DFUBytes
import DFUGATT
import Synchronization
import XCTest

/// Bytes from hex text in a test vector; fails the test (and returns []) on a typo.
func hexBytes(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [UInt8] {
    guard let bytes = [UInt8](hex: text) else {
        XCTFail("bad hex in test vector: \(text)", file: file, line: line)
        return []
    }
    return bytes
}

/// The error a throwing closure threw, or nil (and a failure) if it returned.
func expectDecodingError<T>(_ body: @autoclosure () throws(ATTDecodingError) -> T,
                            file: StaticString = #filePath, line: UInt = #line) -> ATTDecodingError? {
    do {
        _ = try body()
        XCTFail("expected an ATTDecodingError", file: file, line: line)
        return nil
    } catch {
        return error
    }
}

/// The GATTError an async closure threw, or nil (and a failure) if it returned.
func expectGATTError(_ body: () async throws(GATTError) -> Void,
                     file: StaticString = #filePath, line: UInt = #line) async -> GATTError? {
    do {
        try await body()
        XCTFail("expected a GATTError", file: file, line: line)
        return nil
    } catch {
        return error
    }
}

/// Waits (yielding, up to ~1 s of real time) until `condition` holds.
func eventually(_ what: String, file: StaticString = #filePath, line: UInt = #line,
                _ condition: () async -> Bool) async {
    for attempt in 0..<2000 {
        if await condition() { return }
        if attempt < 100 { await Task.yield() } else { try? await Task.sleep(for: .microseconds(500)) }
    }
    XCTFail("timed out waiting until \(what)", file: file, line: line)
}

/// A clock that moves only when the test says so.
final class ManualATTClock: ATTClock {
    private struct Sleeper {
        var deadline: Duration
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Duration = .zero
        var nextIdentifier = 0
        var sleepers: [Int: Sleeper] = [:]
        var cancelled: Set<Int> = []
    }

    private let state = Mutex(State())

    var now: Duration { state.withLock { $0.now } }

    /// Sleepers waiting for a later time.
    var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    func sleep(until deadline: Duration) async throws {
        let identifier = state.withLock { state -> Int in
            state.nextIdentifier += 1
            return state.nextIdentifier
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Result<Void, any Error>? = state.withLock { state in
                    if state.cancelled.remove(identifier) != nil { return .failure(CancellationError()) }
                    if state.now >= deadline { return .success(()) }
                    state.sleepers[identifier] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let resumeNow { continuation.resume(with: resumeNow) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                if let sleeper = state.sleepers.removeValue(forKey: identifier) { return sleeper }
                state.cancelled.insert(identifier)
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now += duration
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for key in due.keys { state.sleepers.removeValue(forKey: key) }
            return Array(due.values)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}

/// Runs `body` in a new task (a request the test answers from the peer's side meanwhile).
func spawn<T: Sendable>(_ body: @escaping @Sendable () async throws(GATTError) -> T) -> Task<Result<T, GATTError>, Never> {
    Task {
        do throws(GATTError) { return .success(try await body()) } catch { return .failure(error) }
    }
}

extension Result {
    /// The error, or nil (and a test failure) if it succeeded.
    func failure(file: StaticString = #filePath, line: UInt = #line) -> Failure? {
        switch self {
        case .success:
            XCTFail("expected an error", file: file, line: line)
            return nil
        case let .failure(error):
            return error
        }
    }
}
