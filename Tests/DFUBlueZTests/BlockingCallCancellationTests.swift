import Foundation
import XCTest
@testable import DFUBlueZ

/// Blocking work on its own thread (connect(2), a scan's poll loop): cancelling the caller
/// (Ctrl-C) resumes it at once; what the thread returns later is handed over to be closed.
final class BlockingCallCancellationTests: XCTestCase {
    private struct Stopped: Error, Equatable {}

    func testCancellingTheCallerResumesItWithoutWaitingForTheThread() async throws {
        let release = DispatchSemaphore(value: 0)
        let abandoned = DispatchSemaphore(value: 0)
        let call = Task { () async -> Result<Int, Stopped> in
            do throws(Stopped) {
                return .success(try await BlockingCall.run("test", cancelledError: { Stopped() },
                                                           abandoned: { value in if value == 42 { abandoned.signal() } }) {
                    () throws(Stopped) -> Int in
                    // Blocks until released (a connect waiting for its timeout); at most 10 s.
                    _ = release.wait(timeout: .now() + 10)
                    return 42
                })
            } catch {
                return .failure(error)
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        call.cancel()
        let result = await call.value
        XCTAssertEqual(result, .failure(Stopped()), "the caller got its cancellation while the thread still blocks")
        release.signal()
        XCTAssertEqual(abandoned.wait(timeout: .now() + 10), .success, "the late value is handed to `abandoned`")
    }

    func testWithoutCancellationTheThreadsValueIsReturned() async throws {
        let value = try await BlockingCall.run("test", cancelledError: { Stopped() }) { () throws(Stopped) -> Int in 7 }
        XCTAssertEqual(value, 7)
    }

    func testAlreadyCancelledCallerStartsNoWork() async throws {
        let started = ManagedAtomicFlag()
        let call = Task { () async -> Result<Int, Stopped> in
            withUnsafeCurrentTask { $0?.cancel() }
            do throws(Stopped) {
                return .success(try await BlockingCall.run("test", cancelledError: { Stopped() }) { () throws(Stopped) -> Int in
                    started.set()
                    return 1
                })
            } catch {
                return .failure(error)
            }
        }
        let result = await call.value
        XCTAssertEqual(result, .failure(Stopped()))
        try await Task.sleep(for: .milliseconds(50))
        XCTAssertFalse(started.isSet, "no thread was started for a caller already cancelled")
    }
}

private final class ManagedAtomicFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}
