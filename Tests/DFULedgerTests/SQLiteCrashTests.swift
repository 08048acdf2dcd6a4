import DFULedger
import Foundation
import XCTest

/// SIGKILL in the middle of writing: nothing committed is lost, the file stays intact, and a rerun
/// of the same station finishes the line with every device done exactly once.
///
/// Two writers are killed: this test bundle itself re-run as a child process (our ledger code,
/// writing in a loop), and a Python script using its standard-library sqlite3 module on the same
/// file (another SQLite client, as a second process on a line would be).
final class SQLiteCrashTests: XCTestCase {
    static let childEnvironmentKey = "DFUKIT_LEDGER_CRASH_CHILD"
    static let package = String(repeating: "5a", count: 32)

    /// Flashes devices 0, 1, 2, ... as station "line-1", printing "committed N" after each
    /// recorded success. In a child process (with `DFUKIT_LEDGER_CRASH_CHILD=PATH`) it runs until
    /// killed; run directly it flashes 20 devices into a fresh ledger and checks them.
    func testWriterLoop() async throws {
        if let path = ProcessInfo.processInfo.environment[Self.childEnvironmentKey] {
            let ledger = try await SQLiteLedger(path: path)
            for index in 0..<1_000_000 {
                let device = LedgerFixtures.device(index)
                if try await LedgerFixtures.flashOnce(ledger, device: device, package: Self.package, station: "line-1") {
                    FileHandle.standardOutput.write(Data("committed \(index)\n".utf8))
                }
            }
            return
        }
        let directory = try TemporaryDirectory()
        let ledger = try await SQLiteLedger(path: directory.file("ledger.sqlite"))
        for index in 0..<20 {
            let flashed = try await LedgerFixtures.flashOnce(ledger, device: LedgerFixtures.device(index),
                                                              package: Self.package, station: "line-1")
            XCTAssertTrue(flashed)
        }
        let summary = try await ledger.summary()
        XCTAssertEqual(summary.succeeded, 20)
    }

    func testAStationKilledMidWriteLosesNothingAndTheRerunFlashesEachDeviceOnce() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("ledger.sqlite")
        var environment = ProcessInfo.processInfo.environment
        environment[Self.childEnvironmentKey] = path
        let child = try Subprocess.start(Self.testBundleExecutable, ["DFULedgerTests.SQLiteCrashTests/testWriterLoop"],
                                         stdout: directory.file("child.out"), stderr: directory.file("child.err"),
                                         environment: environment)
        let reported = try await waitForCommits(in: directory.file("child.out"), atLeast: 40, process: child)
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        XCTAssertEqual(child.terminationReason, .uncaughtSignal)
        // Read the report again after the kill: lines written just before it count too.
        let committed = try committedDevices(in: directory.file("child.out"))
        XCTAssertGreaterThanOrEqual(committed.count, reported.count)

        // The rerun: the same station name, a new process (here: a new ledger instance).
        let rerun = try await SQLiteLedger(path: path)
        let released = try await rerun.releaseEarlierClaims(station: "line-1")
        XCTAssertLessThanOrEqual(released, 1, "the dead writer held at most the device it was flashing")
        let integrity = try await rerun.integrityCheck()
        XCTAssertEqual(integrity, ["ok"])
        let before = try await rerun.attempts()
        XCTAssertGreaterThanOrEqual(before.count, committed.count, "a committed attempt was lost")
        for index in committed {
            let isDone = try await rerun.isDone(device: LedgerFixtures.device(index), packageSHA256: Self.package)
            XCTAssertTrue(isDone, "device \(index) was reported committed but is not done")
        }
        let lineSize = (committed.max() ?? 0) + 20
        var flashedByRerun = 0
        for index in 0..<lineSize {
            if try await LedgerFixtures.flashOnce(rerun, device: LedgerFixtures.device(index), package: Self.package,
                                                 station: "line-1") {
                flashedByRerun += 1
            }
        }
        let attempts = try await rerun.attempts()
        let successes = Dictionary(grouping: attempts.filter { $0.result == .succeeded }, by: \.device)
        XCTAssertEqual(successes.count, lineSize, "every device of the line is done")
        XCTAssertTrue(successes.values.allSatisfy { $0.count == 1 }, "a device was flashed twice")
        XCTAssertEqual(flashedByRerun, lineSize - before.count)
    }

    func testAnotherSQLiteClientKilledMidWriteLeavesAnIntactLedger() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("ledger.sqlite")
        let ledger = try await SQLiteLedger(path: path)
        await ledger.close()
        // Inserts attempts one transaction at a time, synchronous=FULL, printing after each commit.
        let script = """
            import sqlite3, sys, time
            connection = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
            connection.execute('PRAGMA synchronous = FULL')
            index = 0
            while True:
                connection.execute('BEGIN IMMEDIATE')
                connection.execute(
                    "INSERT INTO dfukit_attempts (claim_id, device, serial, package_sha256, profile, station, started_at,"
                    " ended_at, bytes, result, error_kind, error_message, attempt_number, seconds, bytes_per_second)"
                    " VALUES (?, ?, NULL, ?, 'vendor-ctrlpt', 'python', ?, ?, 1000, 'failed', 'timeout', ?, 1, 1.0, 1000.0)",
                    ('claim-%d' % index, 'PY:%06d' % index, 'py', time.time(), time.time(), 'x' * 2000))
                connection.execute('COMMIT')
                print('committed %d' % index, flush=True)
                index += 1
            """
        let writer = try Subprocess.start("python3", ["-c", script, path], stdout: directory.file("python.out"),
                                          stderr: directory.file("python.err"))
        _ = try await waitForCommits(in: directory.file("python.out"), atLeast: 200, process: writer)
        kill(writer.processIdentifier, SIGKILL)
        writer.waitUntilExit()
        let committed = try committedDevices(in: directory.file("python.out"))

        let reopened = try await SQLiteLedger(path: path)
        let integrity = try await reopened.integrityCheck()
        XCTAssertEqual(integrity, ["ok"])
        let attempts = try await reopened.attempts(AttemptFilter(packageSHA256: "py"))
        XCTAssertGreaterThanOrEqual(attempts.count, committed.count, "a committed attempt was lost")
        XCTAssertEqual(attempts.map(\.device).prefix(3), ["PY:000000", "PY:000001", "PY:000002"])
        // The ledger is still writable after the crash.
        let flashed = try await LedgerFixtures.flashOnce(reopened, device: "after-crash", package: "py", station: "s")
        XCTAssertTrue(flashed)
    }

    // MARK: Helpers

    /// The executable that runs these tests (on Linux the `.xctest` bundle is an executable file).
    static var testBundleExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// The indices in the "committed N" lines of `path`.
    private func committedDevices(in path: String) throws -> [Int] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            line.hasPrefix("committed ") ? Int(line.dropFirst("committed ".count)) : nil
        }
    }

    /// Waits (up to 60 s) until the writer has reported `count` commits.
    private func waitForCommits(in path: String, atLeast count: Int, process: Process) async throws -> [Int] {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let committed = try committedDevices(in: path)
            if committed.count >= count { return committed }
            guard process.isRunning else {
                throw ProcessFailure(description: "the writer exited (\(process.terminationStatus)) after "
                                     + "\(committed.count) commits")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        kill(process.processIdentifier, SIGKILL)
        throw ProcessFailure(description: "the writer did not commit \(count) times within 60 s")
    }
}
