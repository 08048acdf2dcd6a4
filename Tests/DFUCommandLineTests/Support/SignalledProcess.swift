import Foundation
import XCTest

/// Runs `dfukit` and sends it a signal once its standard error shows a given text: how the
/// interrupt tests press Ctrl-C at a chosen step.
enum SignalledProcess {
    struct Outcome {
        var result: ProcessResult
        /// Whether the process was still running when the signal was sent.
        var signalled: Bool
    }

    /// Starts `dfukit arguments`; once standard error contains `marker` (within `markerTimeout`
    /// seconds; without a marker, `markerTimeout` seconds after the start) and `delay` seconds
    /// more, sends `signal`;
    /// then waits up to `exitTimeout` seconds for the process to exit (a hang check: it throws
    /// when the process does not exit, and kills it).
    static func run(_ arguments: [String], signal: Int32 = SIGINT, when marker: String?, after delay: TimeInterval = 0,
                    markerTimeout: TimeInterval = 60, exitTimeout: TimeInterval = 5,
                    environment extra: [String: String] = [:]) throws -> Outcome {
        let executable = try DFUKitBinary.located.get()
        let capture = try CapturedOutput(prefix: "dfukit-signal")
        let (process, finished) = capture.process(executable, arguments)
        process.currentDirectoryURL = URL(fileURLWithPath: capture.directory.path)
        var environment = ProcessInfo.processInfo.environment
        environment["DFUKIT_PROFILE_PATH"] = nil
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        try process.run()

        let markerDeadline = Date().addingTimeInterval(markerTimeout)
        var seen = marker == nil
        while let marker, Date() < markerDeadline, process.isRunning {
            if capture.stderrSoFar.contains(marker) {
                seen = true
                break
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        if marker == nil { Thread.sleep(forTimeInterval: markerTimeout) }
        if seen, delay > 0 { Thread.sleep(forTimeInterval: delay) }
        let signalled = seen && process.isRunning
        if signalled { kill(process.processIdentifier, signal) }
        if finished.wait(timeout: .now() + (signalled ? exitTimeout : markerTimeout)) == .timedOut {
            process.terminate()
            Thread.sleep(forTimeInterval: 0.5)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            finished.wait()
            let stderr = capture.stderrSoFar
            throw ProcessFailure(description: "dfukit \(arguments.joined(separator: " ")) did not exit within "
                                 + "\(exitTimeout) s of the signal:\n\(stderr)")
        }
        return Outcome(result: try capture.result(of: process), signalled: signalled)
    }
}
