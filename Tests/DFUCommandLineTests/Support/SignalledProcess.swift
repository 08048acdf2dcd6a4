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
        let scratch = try TemporaryDirectory(prefix: "dfukit-signal")
        let stdoutPath = scratch.file("stdout"), stderrPath = scratch.file("stderr")
        FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        FileManager.default.createFile(atPath: stderrPath, contents: nil)
        let stdoutHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        let stderrHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        defer {
            try? stdoutHandle.close()
            try? stderrHandle.close()
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdoutHandle
        process.standardError = stderrHandle
        process.currentDirectoryURL = URL(fileURLWithPath: scratch.path)
        var environment = ProcessInfo.processInfo.environment
        environment["DFUKIT_PROFILE_PATH"] = nil
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()

        let markerDeadline = Date().addingTimeInterval(markerTimeout)
        var seen = marker == nil
        while let marker, Date() < markerDeadline, process.isRunning {
            if let text = try? String(contentsOfFile: stderrPath, encoding: .utf8), text.contains(marker) {
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
            let stderr = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
            throw ProcessFailure(description: "dfukit \(arguments.joined(separator: " ")) did not exit within "
                                 + "\(exitTimeout) s of the signal:\n\(stderr)")
        }
        return Outcome(result: ProcessResult(status: process.terminationStatus,
                                             stdout: try String(contentsOfFile: stdoutPath, encoding: .utf8),
                                             stderr: try String(contentsOfFile: stderrPath, encoding: .utf8)),
                       signalled: signalled)
    }
}
