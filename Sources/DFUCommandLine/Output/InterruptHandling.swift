import Dispatch
import Foundation
import Synchronization

/// A signal that asked a command to stop: Ctrl-C (SIGINT) or SIGTERM.
struct Interruption: Sendable, Equatable {
    let signal: Int32

    /// 130 after SIGINT, 143 after SIGTERM: 128 + the signal, as a shell reports a process the
    /// signal killed, so scripts see the same status whether or not the command stopped cleanly.
    var exitCode: Int32 { 128 + signal }

    var name: String { signal == SIGTERM ? "SIGTERM" : "Ctrl-C (SIGINT)" }
}

/// Ctrl-C (or SIGTERM) during a long operation cancels it, so it stops cleanly and says where
/// it stopped, instead of killing the process mid-write. Every wait under the operation
/// observes cancellation; should one not, the process still exits `grace` after the signal
/// (with the signal's status), so a command never ignores Ctrl-C. A second signal exits at once.
enum InterruptHandling {
    /// How long a cancelled operation has to stop and print what the device holds.
    static let grace: DispatchTimeInterval = .milliseconds(900)

    /// Runs `operation`, cancelling it on SIGINT or SIGTERM; returns its value and the signal
    /// that stopped it, if one did.
    static func run<T: Sendable>(_ operation: sending @escaping () async -> T) async -> (value: T, interruption: Interruption?) {
        let state = SignalState()
        let cancellation = PendingCancellation()
        let signals = [SIGINT, SIGTERM]
        // Caught before the operation starts: a signal that arrives as soon as the operation
        // prints its first line (a test's marker) must not find the default action and kill us.
        for number in signals { signal(number, SIG_IGN) }
        let sources = signals.map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                guard state.receive(number) else {
                    // The second signal: the user does not want to wait for a clean stop.
                    FileHandle.standardError.write(Data("\ninterrupted again: exiting now\n".utf8))
                    _exit(128 + number)
                }
                cancellation.request()
                DispatchQueue.global().asyncAfter(deadline: .now() + grace) {
                    guard !state.isFinished else { return }
                    FileHandle.standardError.write(Data(
                        ("\ninterrupted by \(Interruption(signal: number).name): the command did not stop within a second; "
                         + "exiting without knowing what the device holds\n").utf8))
                    _exit(128 + number)
                }
            }
            source.resume()
            return source
        }
        let task = Task { await operation() }
        cancellation.attach { task.cancel() }
        let value = await task.value
        state.finish()
        for source in sources { source.cancel() }
        for number in signals { signal(number, SIG_DFL) }
        return (value, state.received.map(Interruption.init(signal:)))
    }

    /// Runs `operation` and returns its status, or the signal's (130, 143) when one stopped it,
    /// after saying so.
    static func exitStatus(_ console: any Console, _ operation: sending @escaping () async -> Int32) async -> Int32 {
        let (status, interruption) = await run(operation)
        guard let interruption else { return status }
        console.error("interrupted by \(interruption.name)")
        return interruption.exitCode
    }
}

/// The first signal received, and whether the operation finished (read from the signal queue).
private final class SignalState: Sendable {
    private let state = Mutex<(received: Int32?, finished: Bool)>((nil, false))

    /// Records `signal`; false when one was already received.
    func receive(_ signal: Int32) -> Bool {
        state.withLock { state in
            guard state.received == nil else { return false }
            state.received = signal
            return true
        }
    }

    var received: Int32? { state.withLock { $0.received } }
    var isFinished: Bool { state.withLock { $0.finished } }
    func finish() { state.withLock { $0.finished = true } }
}

/// A cancellation a signal may ask for before the operation's task exists: it is carried out
/// once the task is attached.
private final class PendingCancellation: Sendable {
    private let state = Mutex<(cancel: (@Sendable () -> Void)?, requested: Bool)>((nil, false))

    func request() {
        let cancel = state.withLock { state -> (@Sendable () -> Void)? in
            state.requested = true
            return state.cancel
        }
        cancel?()
    }

    func attach(_ cancel: @escaping @Sendable () -> Void) {
        let requested = state.withLock { state -> Bool in
            state.cancel = cancel
            return state.requested
        }
        if requested { cancel() }
    }
}
