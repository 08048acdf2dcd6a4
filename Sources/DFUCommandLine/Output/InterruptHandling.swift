import Dispatch
import Foundation

/// Ctrl-C during a long operation cancels it (so it can stop cleanly and say where it
/// stopped) instead of killing the process mid-write. A second Ctrl-C still goes through
/// once the operation returned.
enum InterruptHandling {
    static func cancellingOnInterrupt<T: Sendable>(_ operation: sending @escaping () async -> T) async -> T {
        signal(SIGINT, SIG_IGN)
        let task = Task { await operation() }
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { task.cancel() }
        source.resume()
        let result = await task.value
        source.cancel()
        signal(SIGINT, SIG_DFL)
        return result
    }
}
