import DFUKit
import Dispatch
import Foundation
import Synchronization

/// How `batch run` is stopped by an operator or a service manager: SIGINT (Ctrl-C) or SIGTERM.
/// The first signal stops starting devices (the running ones finish, are recorded and their
/// claims released); the second cancels the running attempts (recorded as cancelled, claims
/// released). The batch then exits 128 + the first signal's number.
enum BatchStopSignals {
    struct Signal: Sendable, Equatable {
        var number: Int32
        var name: String
        /// 130 for SIGINT, 143 for SIGTERM: the shell's convention for "ended by signal N".
        var exitCode: Int32 { 128 + number }

        static let interrupt = Signal(number: SIGINT, name: "SIGINT")
        static let terminate = Signal(number: SIGTERM, name: "SIGTERM")
    }

    /// Runs the batch with both signals handled; returns how it ended and the first signal, if any.
    static func run(_ runner: BatchRunner) async -> (Result<BatchSummary, FlashError>, Signal?) {
        let received = Mutex<[Signal]>([])
        let task = Task { () -> Result<BatchSummary, FlashError> in
            do throws(FlashError) { return .success(try await runner.run()) } catch { return .failure(error) }
        }
        let sources = [Signal.interrupt, Signal.terminate].map { signalKind in
            Foundation.signal(signalKind.number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalKind.number, queue: .global())
            source.setEventHandler {
                // Signals that arrive before the handler runs are merged into one event: `data` counts them.
                let times = max(1, Int(source.data))
                let count = received.withLock { $0.append(contentsOf: repeatElement(signalKind, count: times)); return $0.count }
                if count == times {
                    Task { await runner.stopStartingNewDevices() }
                }
                if count > 1 {
                    task.cancel()
                }
            }
            source.resume()
            return source
        }
        let result = await task.value
        for source in sources { source.cancel() }
        Foundation.signal(SIGINT, SIG_DFL)
        Foundation.signal(SIGTERM, SIG_DFL)
        return (result, received.withLock { $0.first })
    }
}
