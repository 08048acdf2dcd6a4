import DFUStation
import Foundation
import Synchronization

/// A `DashboardSource` a test drives: fixed JSON, recorded calls, changes on demand.
final class FakeDashboardSource: DashboardSource {
    struct Control: Equatable {
        var kind: String
        var target: String
        var operatorName: String
        var reason: String?
    }

    private struct State {
        var snapshot = Data(#"{"version":1,"generatedAt":"2026-12-02T20:45:00.000Z","line":null}"#.utf8)
        var snapshotFailure: DashboardSourceError?
        var snapshotCalls: [(line: String?, controlsEnabled: Bool)] = []
        var histories: [String: Data] = [:]
        var controlAnswer = true
        var controls: [Control] = []
        var generation = 0
        var waiters: [UUID: (entered: Int, resume: CheckedContinuation<Bool, Never>)] = [:]
        var cancelled: Set<UUID> = []
        var waitCalls = 0
    }

    private let state = Mutex(State())

    var snapshotJSON: Data {
        get { state.withLock { $0.snapshot } }
        set { state.withLock { $0.snapshot = newValue } }
    }
    var snapshotFailure: DashboardSourceError? {
        get { state.withLock { $0.snapshotFailure } }
        set { state.withLock { $0.snapshotFailure = newValue } }
    }
    /// What resume and release answer (false: nothing to do).
    var controlAnswer: Bool {
        get { state.withLock { $0.controlAnswer } }
        set { state.withLock { $0.controlAnswer = newValue } }
    }
    var snapshotCalls: [(line: String?, controlsEnabled: Bool)] { state.withLock { $0.snapshotCalls } }
    var controls: [Control] { state.withLock { $0.controls } }
    /// Calls of waitForChange that are waiting now.
    var waiting: Int { state.withLock { $0.waiters.count } }
    var waitCalls: Int { state.withLock { $0.waitCalls } }

    func setHistory(_ json: String, for device: String) {
        state.withLock { $0.histories[device] = Data(json.utf8) }
    }

    /// The ledger changed: every wait ends with true.
    func change() {
        let waiters = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.generation += 1
            defer { state.waiters = [:] }
            return state.waiters.values.map(\.resume)
        }
        for waiter in waiters { waiter.resume(returning: true) }
    }

    func snapshot(line: String?, controlsEnabled: Bool) async throws -> Data {
        try state.withLock { state in
            state.snapshotCalls.append((line, controlsEnabled))
            if let failure = state.snapshotFailure { throw failure }
            return state.snapshot
        }
    }

    func deviceHistory(_ address: String) async throws -> Data? {
        state.withLock { $0.histories[address] }
    }

    func waitForChange(timeout: Duration) async throws -> Bool {
        let entered = state.withLock { state -> Int in
            state.waitCalls += 1
            return state.generation
        }
        let id = UUID()
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.changeSignal(id, entered: entered) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    private func changeSignal(_ id: UUID, entered: Int) async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let answer = state.withLock { state -> Bool? in
                    if state.generation != entered { return true }
                    if state.cancelled.contains(id) { return false }
                    state.waiters[id] = (entered, continuation)
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.cancelled.insert(id)
                return state.waiters.removeValue(forKey: id)
            }
            waiter?.resume.resume(returning: false)
        }
    }

    func resume(line: String, operator operatorName: String, reason: String?) async throws -> Bool {
        state.withLock { state in
            state.controls.append(Control(kind: "resume", target: line, operatorName: operatorName, reason: reason))
            return state.controlAnswer
        }
    }

    func release(device: String, operator operatorName: String, reason: String?) async throws -> Bool {
        state.withLock { state in
            state.controls.append(Control(kind: "release", target: device, operatorName: operatorName, reason: reason))
            return state.controlAnswer
        }
    }
}
