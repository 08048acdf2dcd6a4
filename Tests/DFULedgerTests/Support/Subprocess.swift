import Foundation
import XCTest

/// What one run of a program printed and how it exited.
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String

    var transcript: String { "exit \(status)\n--- stdout ---\n\(stdout)--- stderr ---\n\(stderr)--------------" }
}

struct ProcessFailure: Error, CustomStringConvertible {
    var description: String
}

/// Runs programs with their output captured in files.
enum Subprocess {
    /// Runs `executable` (a path, or a name looked up on `PATH` through /usr/bin/env) to completion.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                    timeout: TimeInterval = 120) throws -> ProcessResult {
        let capture = try TemporaryDirectory(prefix: "dfukit-ledger-capture")
        let process = try start(executable, arguments, stdout: capture.file("stdout"), stderr: capture.file("stderr"),
                                environment: environment)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                throw ProcessFailure(description: "\(executable) \(arguments.joined(separator: " ")) ran over \(timeout) s")
            }
            usleep(10_000)
        }
        process.waitUntilExit()
        return ProcessResult(status: process.terminationStatus,
                             stdout: (try? String(contentsOfFile: capture.file("stdout"), encoding: .utf8)) ?? "",
                             stderr: (try? String(contentsOfFile: capture.file("stderr"), encoding: .utf8)) ?? "")
    }

    /// Starts `executable` with its output going to the files `stdout` and `stderr`.
    static func start(_ executable: String, _ arguments: [String], stdout: String, stderr: String,
                      environment: [String: String]? = nil) throws -> Process {
        _ = FileManager.default.createFile(atPath: stdout, contents: nil)
        _ = FileManager.default.createFile(atPath: stderr, contents: nil)
        let process = Process()
        if executable.hasPrefix("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdout))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderr))
        if let environment { process.environment = environment }
        try process.run()
        return process
    }

    /// Runs a tool on `PATH` and returns its standard output; throws when it fails.
    static func tool(_ name: String, _ arguments: [String]) throws -> String {
        let result = try run(name, arguments)
        guard result.status == 0 else {
            throw ProcessFailure(description: "\(name) \(arguments.joined(separator: " ")) failed:\n\(result.transcript)")
        }
        return result.stdout
    }
}

/// Fails unless the file at `path` is well-formed XML, as judged by Python's expat-based parser
/// (python3 is one of the packages `make test` installs; xmllint is not).
func assertWellFormedXML(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let result = try Subprocess.run("python3", ["-c", "import sys, xml.etree.ElementTree as ET; ET.parse(sys.argv[1])", path])
    XCTAssertEqual(result.status, 0, "not well-formed XML: \(path)\n\(result.transcript)", file: file, line: line)
}
