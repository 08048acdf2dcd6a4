import Foundation

/// A process's standard output and error captured in two files of a scratch directory (no pipe
/// can fill up and block the process), shared by `Subprocess` and `SignalledProcess`.
final class CapturedOutput {
    /// The scratch directory; removed with this object.
    let directory: TemporaryDirectory
    let stdoutPath: String
    let stderrPath: String
    private let stdoutHandle: FileHandle
    private let stderrHandle: FileHandle

    init(prefix: String) throws {
        directory = try TemporaryDirectory(prefix: prefix)
        stdoutPath = directory.file("stdout")
        stderrPath = directory.file("stderr")
        try Data().write(to: URL(fileURLWithPath: stdoutPath))
        try Data().write(to: URL(fileURLWithPath: stderrPath))
        stdoutHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        stderrHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
    }

    deinit {
        try? stdoutHandle.close()
        try? stderrHandle.close()
    }

    /// A process running `executable arguments` with standard input from /dev/null, its output
    /// into these files, and a semaphore signalled when it ends.
    func process(_ executable: URL, _ arguments: [String]) -> (Process, DispatchSemaphore) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdoutHandle
        process.standardError = stderrHandle
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        return (process, finished)
    }

    /// Standard output so far ("" when unreadable).
    var stdoutSoFar: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }

    /// Standard error so far ("" when unreadable).
    var stderrSoFar: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// The ended `process`'s status and everything it printed.
    func result(of process: Process) throws -> ProcessResult {
        ProcessResult(status: process.terminationStatus,
                      stdout: try String(contentsOfFile: stdoutPath, encoding: .utf8),
                      stderr: try String(contentsOfFile: stderrPath, encoding: .utf8))
    }
}
