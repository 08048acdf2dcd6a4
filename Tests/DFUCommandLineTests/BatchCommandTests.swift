import Foundation
import XCTest

/// `dfukit batch run` as a station runs it: the built binary, a simulated fleet, a SQLite ledger
/// checked with Python's sqlite3 (a reader we did not write).
final class BatchCommandTests: XCTestCase {
    private func batch(_ package: String, fleet: String, ledger: String, in directory: TemporaryDirectory,
                       extra: [String] = []) throws -> ProcessResult {
        try DFUKitBinary.run(["batch", "run", "--profile", DFUKitBinary.shippedProfile, "--package", package,
                              "--device", "sim:vendor-ctrlpt?\(fleet)", "--ledger", "sqlite:\(ledger)",
                              "--station", "line-1", "--json"] + extra, in: directory.path)
    }

    /// Rows of `SELECT device, count(*) FROM dfukit_attempts WHERE result = 'succeeded' GROUP BY device`.
    private func successesPerDevice(_ ledger: String) throws -> [String: Int] {
        let script = """
            import json, sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            rows = db.execute("SELECT device, count(*) FROM dfukit_attempts WHERE result = 'succeeded' GROUP BY device")
            print(json.dumps(dict(rows.fetchall())))
            """
        let output = try Subprocess.tool("python3", ["-c", script, ledger])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Int])
        return object
    }

    func testBatchFlashesEveryDeviceAndARerunSkipsThem() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 8_000)
        let ledger = directory.file("line.sqlite")
        let first = try batch(package, fleet: "fleet=6", ledger: ledger, in: directory, extra: ["--concurrency", "3"])
        XCTAssertEqual(first.status, 0, first.transcript)
        let summary = try jsonObject(first.stdout)
        XCTAssertEqual(summary["succeeded"] as? Int, 6)
        XCTAssertEqual(summary["failed"] as? Int, 0)
        XCTAssertEqual(summary["clock"] as? String, "simulated")
        XCTAssertEqual(try successesPerDevice(ledger).count, 6)

        let rerun = try batch(package, fleet: "fleet=6", ledger: ledger, in: directory)
        XCTAssertEqual(rerun.status, 0, rerun.transcript)
        let again = try jsonObject(rerun.stdout)
        XCTAssertEqual(again["succeeded"] as? Int, 0)
        XCTAssertEqual(again["skipped"] as? Int, 6)
        XCTAssertTrue(try successesPerDevice(ledger).values.allSatisfy { $0 == 1 })
    }

    /// `realtime=` and `journal=`: the batch runs on the wall clock, and every device's journal
    /// shows its connection, the image's writes and one activation, of the same image everywhere.
    func testRealtimeFleetRunsOnTheWallClockAndKeepsAJournal() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 8_000)
        let ledger = directory.file("line.sqlite")
        let journal = directory.file("journal")
        let result = try batch(package, fleet: "fleet=3&realtime=50&journal=\(journal)", ledger: ledger, in: directory,
                               extra: ["--concurrency", "3"])
        XCTAssertEqual(result.status, 0, result.transcript)
        let summary = try jsonObject(result.stdout)
        XCTAssertEqual(summary["succeeded"] as? Int, 3)
        XCTAssertEqual(summary["clock"] as? String, "wall")
        // Each attempt is timed on the wall clock too, not in the session's simulated seconds
        // (fifty times longer here): its seconds agree with its start and end.
        let timing = try Subprocess.tool("python3", ["-c", """
            import sqlite3, sys
            for seconds, started, ended in sqlite3.connect(sys.argv[1]).execute(
                    "SELECT seconds, started_at, ended_at FROM dfukit_attempts"):
                print(seconds, float(ended) - float(started))
            """, ledger])
        let rows = timing.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }
        XCTAssertEqual(rows.count, 3, timing)
        for row in rows where row.count == 2 {
            XCTAssertEqual(row[0], row[1], accuracy: 0.05, "recorded seconds vs. its start and end: \(timing)")
        }

        let lines = try String(contentsOfFile: journal + "/journal.log", encoding: .utf8).split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let devices = Dictionary(grouping: lines) { $0["device"] as? String ?? "" }
        XCTAssertEqual(devices.keys.sorted(), ["C0:FF:EE:00:00:01", "C0:FF:EE:00:00:02", "C0:FF:EE:00:00:03"])
        var images: Set<String> = []
        for (device, events) in devices {
            let kinds = events.compactMap { $0["event"] as? String }
            XCTAssertEqual(kinds.first, "connect", device)
            XCTAssertEqual(kinds.filter { $0 == "activated" }.count, 1, "\(device): \(kinds)")
            let activation = try XCTUnwrap(kinds.firstIndex(of: "activated"))
            let written = events[..<activation].compactMap { $0["event"] as? String == "write" ? $0["length"] as? Int : nil }
            XCTAssertGreaterThan(written.reduce(0, +), 8_000, "\(device): the image's bytes reached the device before activation")
            images.formUnion(events.compactMap { $0["sha256"] as? String })
        }
        XCTAssertEqual(images.count, 1, "every device activated the same image")
        XCTAssertEqual(images.first?.count, 64)
    }

    /// Ctrl-C meets a real-time fleet mid-transfer: the batch exits 130, says it stopped, holds no
    /// claim, and every device its journal shows activated has its success record.
    func testInterruptOnARealtimeFleetMidTransfer() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 60_000)
        let ledger = directory.file("line.sqlite")
        let journal = directory.file("journal")
        let (process, output, _) = try startBatch(["--profile", DFUKitBinary.shippedProfile, "--package", package,
                                                   "--device", "sim:vendor-ctrlpt?fleet=20&realtime=2&journal=\(journal)",
                                                   "--ledger", "sqlite:\(ledger)", "--station", "line-1", "--concurrency", "2", "--json"], in: directory)
        // Until both devices of the first pair are being written to.
        let deadline = Date().addingTimeInterval(30)
        func writes() -> Int {
            ((try? String(contentsOfFile: journal + "/journal.log", encoding: .utf8)) ?? "")
                .components(separatedBy: "\"event\":\"write\"").count - 1
        }
        while Date() < deadline, process.isRunning, writes() < 20 { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertTrue(process.isRunning, "a 60 kB image at twice real time takes seconds per device")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        let summary = try jsonObject(try String(contentsOfFile: output, encoding: .utf8))
        XCTAssertEqual(summary["stopped_early"] as? Bool, true)
        XCTAssertEqual(summary["clock"] as? String, "wall")
        XCTAssertLessThan(summary["succeeded"] as? Int ?? 20, 20)

        let script = """
            import json, sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            active = db.execute("SELECT count(*) FROM dfukit_claims WHERE state = 'active'").fetchone()[0]
            done = [row[0] for row in db.execute("SELECT device FROM dfukit_attempts WHERE result = 'succeeded'")]
            activated = sorted({json.loads(line)["device"] for line in open(sys.argv[2]) if '"activated"' in line})
            print(json.dumps({"active": active, "done": sorted(done), "activated": activated}))
            """
        let state = try jsonObject(try Subprocess.tool("python3", ["-c", script, ledger, journal + "/journal.log"]))
        XCTAssertEqual(state["active"] as? Int, 0, "no claim is held after the interrupt")
        XCTAssertEqual(state["done"] as? [String], state["activated"] as? [String],
                       "every device flashed has its success record, and only those")
    }

    func testFaultyDevicesAreRetriedAndTheCountIsMet() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 8_000)
        let ledger = directory.file("line.sqlite")
        let result = try batch(package, fleet: "fleet=10&fault-rate=0.3&seed=3", ledger: ledger, in: directory,
                               extra: ["--count", "8", "--concurrency", "2", "--retries", "1"])
        XCTAssertEqual(result.status, 0, result.transcript)
        let summary = try jsonObject(result.stdout)
        XCTAssertEqual(summary["succeeded"] as? Int, 8)
        XCTAssertGreaterThan(summary["attempts"] as? Int ?? 0, 8, "some devices needed a second attempt")
        XCTAssertTrue(result.stderr.contains("attempt 2"), result.transcript)
    }

    /// A station killed with SIGKILL mid-batch, then run again: every device ends up done
    /// exactly once in the ledger.
    func testKilledBatchRerunsToEveryDeviceDoneExactlyOnce() throws {
        // Simulated devices are fast (40 take 0.2 s of CPU): a fleet large enough that the
        // ledger poll below sees the first devices done long before the last.
        let fleet = 300
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 120_000)
        let ledger = directory.file("line.sqlite")
        let (process, _, _) = try startBatch(["--profile", DFUKitBinary.shippedProfile, "--package", package,
                                              "--device", "sim:vendor-ctrlpt?fleet=\(fleet)", "--ledger", "sqlite:\(ledger)",
                                              "--station", "line-1", "--concurrency", "2"], in: directory)
        // Kill it once some devices are done but (almost surely) not all.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, process.isRunning,
              (try? successesPerDevice(ledger).count) ?? 0 < 3 {
            Thread.sleep(forTimeInterval: 0.05)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let before = (try? successesPerDevice(ledger)) ?? [:]
        XCTAssertLessThan(before.count, fleet, "the batch was killed before it finished")

        let rerun = try batch(package, fleet: "fleet=\(fleet)", ledger: ledger, in: directory, extra: ["--concurrency", "2"])
        XCTAssertEqual(rerun.status, 0, rerun.transcript)
        let successes = try successesPerDevice(ledger)
        XCTAssertEqual(successes.count, fleet, "every device is done")
        XCTAssertTrue(successes.values.allSatisfy { $0 == 1 }, "no device is done twice: \(successes)")
        let summary = try jsonObject(rerun.stdout)
        XCTAssertEqual((summary["skipped"] as? Int ?? 0) + (summary["succeeded"] as? Int ?? 0), fleet)
    }

    /// `lease:` in the line file, `--lease` over it, both checked.
    func testLeaseFromTheLineFileAndTheFlag() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 4_000)
        let ledger = directory.file("line.sqlite")
        try directory.write("line.yaml", text: """
            profile: \(DFUKitBinary.shippedProfile)
            package: \(package)
            device: "sim:vendor-ctrlpt?fleet=2"
            ledger: "sqlite:\(ledger)"
            lease: 5m
            """)
        let fromFile = try DFUKitBinary.run(["batch", "run", "line.yaml", "--json"], in: directory.path)
        XCTAssertEqual(fromFile.status, 0, fromFile.transcript)
        XCTAssertEqual(try jsonObject(fromFile.stdout)["lease_seconds"] as? Double, 300)
        let fromFlag = try DFUKitBinary.run(["batch", "run", "line.yaml", "--lease", "90s", "--json"], in: directory.path)
        XCTAssertEqual(fromFlag.status, 0, fromFlag.transcript)
        XCTAssertEqual(try jsonObject(fromFlag.stdout)["lease_seconds"] as? Double, 90)
        let tooShort = try DFUKitBinary.run(["batch", "run", "line.yaml", "--lease", "100ms"], in: directory.path)
        XCTAssertEqual(tooShort.status, 64, tooShort.transcript)
        XCTAssertTrue(tooShort.stderr.contains("--lease must be at least 1s"), tooShort.transcript)
    }

    /// A line file that does not read is bad input (65, as `--help` says), reported with its
    /// location and once only: no `error: line.yaml:2:1: error: ...`.
    func testLineFileErrorsAreDataErrorsWithTheirLocation() throws {
        let directory = try TemporaryDirectory()
        try directory.write("line.yaml", text: "profile: vendor-ctrlpt\nconcurency: 4\n")
        let result = try DFUKitBinary.run(["batch", "run", "line.yaml"], in: directory.path)
        XCTAssertEqual(result.status, 65, result.transcript)
        XCTAssertTrue(result.stderrLines.first?.hasPrefix("line.yaml:2:1: error: unknown key 'concurency'") ?? false,
                      result.transcript)
        XCTAssertFalse(result.stderr.contains("error: line.yaml"), result.transcript)
    }

    /// Radio transports are batch sources too: a bad `hci:` address is a usage error, and
    /// `bluez:` on a kernel without Bluetooth (this machine) says so with exit 69 before any
    /// device is claimed. (Batches that flash over both run in `make test-bumble` and
    /// `make test-kernel`.)
    func testRadioTransportsAsBatchSources() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 1_000)
        let ledger = directory.file("line.sqlite")
        func run(_ device: String) throws -> ProcessResult {
            try DFUKitBinary.run(["batch", "run", "--profile", DFUKitBinary.shippedProfile, "--package", package,
                                  "--device", device, "--ledger", "sqlite:\(ledger)", "--count", "1"], in: directory.path)
        }
        let badHCI = try run("hci:carrier-pigeon:1")
        XCTAssertEqual(badHCI.status, 64, badHCI.transcript)
        XCTAssertTrue(badHCI.stderr.contains("carrier-pigeon"), badHCI.transcript)
        let badAdapter = try run("bluez:usb0")
        XCTAssertEqual(badAdapter.status, 64, badAdapter.transcript)
        XCTAssertTrue(badAdapter.stderr.contains("'usb0' is not an adapter name like hci0"), badAdapter.transcript)
        guard !FileManager.default.fileExists(atPath: "/sys/class/bluetooth") else { return }
        let bluez = try run("bluez:hci0")
        XCTAssertEqual(bluez.status, 69, bluez.transcript)
        XCTAssertTrue(bluez.stderr.contains("bluez:hci0: socket: this kernel has no Bluetooth support"), bluez.transcript)
    }

    /// Claims still held (state 'active') in a SQLite ledger.
    private func activeClaims(_ ledger: String) throws -> Int {
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            print(db.execute("SELECT count(*) FROM dfukit_claims WHERE state = 'active'").fetchone()[0])
            """
        return Int(try Subprocess.tool("python3", ["-c", script, ledger]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    private struct StoppedBatch {
        var status: Int32
        var stderr: String
        var summary: [String: Any]
        var ledger: String
        var fleet: Int
        /// Kept so that the ledger file outlives the run.
        var directory: TemporaryDirectory
    }

    /// Starts `dfukit batch run ARGUMENTS` in `directory` without waiting for it; its standard
    /// output and error go to files there (`out.json`, `err.txt`), read while it runs.
    private func startBatch(_ arguments: [String], in directory: TemporaryDirectory) throws
        -> (process: Process, output: String, errors: String) {
        let process = Process()
        process.executableURL = try DFUKitBinary.located.get()
        process.arguments = ["batch", "run"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory.path)
        let output = try directory.write("out.json", text: "")
        let errors = try directory.write("err.txt", text: "")
        process.standardOutput = FileHandle(forWritingAtPath: output)
        process.standardError = FileHandle(forWritingAtPath: errors)
        try process.run()
        return (process, output, errors)
    }

    /// Runs a batch on a simulated fleet far larger than it gets through, waits (on its own
    /// output, not on a timer) until `doneFirst` devices are done, then sends `signals` one after the other.
    private func stoppedBatch(_ signals: [Int32], packageSize: Int = 120_000, doneFirst: Int = 5) throws -> StoppedBatch {
        let fleet = 2_000
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: packageSize)
        let ledger = directory.file("line.sqlite")
        let (process, output, errors) = try startBatch(["--profile", DFUKitBinary.shippedProfile, "--package", package,
                                                        "--device", "sim:vendor-ctrlpt?fleet=\(fleet)", "--ledger", "sqlite:\(ledger)",
                                                        "--station", "line-1", "--concurrency", "2", "--json"], in: directory)
        func doneLines() -> Int {
            ((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").components(separatedBy: ": done (").count - 1
        }
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, process.isRunning, doneLines() < doneFirst {
            Thread.sleep(forTimeInterval: 0.02)
        }
        XCTAssertTrue(process.isRunning, "the batch was still running when signalled")
        for (index, signal) in signals.enumerated() {
            if index > 0 {
                // The kernel merges a signal sent while the same one is pending: wait until the
                // batch has acted on the previous one.
                let seen = Date().addingTimeInterval(30)
                while Date() < seen, process.isRunning,
                      !(((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").contains("stopping:")) {
                    Thread.sleep(forTimeInterval: 0.005)
                }
            }
            kill(process.processIdentifier, signal)
        }
        let exitDeadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < exitDeadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            XCTFail("the batch did not stop within a minute of the signal")
        }
        process.waitUntilExit()
        let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        let printed = try String(contentsOfFile: output, encoding: .utf8)
        // Stopped, with devices cancelled after a second signal: still the published shape.
        OutputSchemaCheck.assertValid(printed, against: "batch-run", label: "stopped")
        let summary = try jsonObject(printed)
        return StoppedBatch(status: process.terminationStatus, stderr: stderr, summary: summary, ledger: ledger, fleet: fleet,
                            directory: directory)
    }

    /// Ctrl-C once: no new device is started, the running ones finish, the batch exits 130 and
    /// says it stopped, what finished is in the ledger and no claim is left held.
    func testInterruptStopsStartingDevicesAndLetsRunningOnesFinish() throws {
        let stopped = try stoppedBatch([SIGINT])
        XCTAssertEqual(stopped.status, 130, stopped.stderr)
        XCTAssertTrue(stopped.stderr.contains("stopped by SIGINT"), stopped.stderr)
        XCTAssertEqual(stopped.summary["stopped"] as? Bool, true)
        XCTAssertEqual(stopped.summary["signal"] as? String, "SIGINT")
        XCTAssertEqual(stopped.summary["stopped_early"] as? Bool, true)
        let flashed = stopped.summary["succeeded"] as? Int ?? 0
        XCTAssertGreaterThanOrEqual(flashed, 5)
        XCTAssertFalse(stopped.stderr.contains("cancelled"), "one signal cancels nothing")
        XCTAssertLessThan(flashed, stopped.fleet, "devices after the interrupt were not started")
        XCTAssertEqual(stopped.summary["failed"] as? Int, 0, "running devices finished rather than failing")
        XCTAssertEqual(try successesPerDevice(stopped.ledger).count, flashed, "the ledger holds every device that finished")
        XCTAssertEqual(try activeClaims(stopped.ledger), 0, "no claim is left held")
    }

    /// SIGTERM (a service manager stopping the station) does the same and exits 143.
    func testTerminateStopsTheBatchWithExit143() throws {
        let stopped = try stoppedBatch([SIGTERM])
        XCTAssertEqual(stopped.status, 143, stopped.stderr)
        XCTAssertTrue(stopped.stderr.contains("stopped by SIGTERM"), stopped.stderr)
        XCTAssertEqual(stopped.summary["signal"] as? String, "SIGTERM")
        XCTAssertLessThan(stopped.summary["succeeded"] as? Int ?? 0, stopped.fleet)
        XCTAssertEqual(try activeClaims(stopped.ledger), 0, "no claim is left held")
    }

    /// A second signal cancels the running attempts: they are recorded as cancelled (never as
    /// done), their claims released, and the exit status is still the first signal's. (A 1 MB
    /// image keeps each simulated attempt busy for more than half a second of real time, so the
    /// second signal, sent as soon as the batch says it is stopping, lands while they transfer.)
    func testSecondSignalCancelsRunningAttemptsAndReleasesTheirClaims() throws {
        let stopped = try stoppedBatch([SIGINT, SIGINT], packageSize: 1_000_000, doneFirst: 2)
        XCTAssertEqual(stopped.status, 130, stopped.stderr)
        XCTAssertTrue(stopped.stderr.contains("stopped by SIGINT"), stopped.stderr)
        XCTAssertEqual(try activeClaims(stopped.ledger), 0, "no claim is left held")
        let flashed = stopped.summary["succeeded"] as? Int ?? 0
        XCTAssertEqual(try successesPerDevice(stopped.ledger).count, flashed)
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            print(db.execute(\"\"\"SELECT count(*) FROM dfukit_attempts a JOIN dfukit_claims c USING (device, package_sha256)
                WHERE a.result = 'cancelled' AND c.state = 'released'\"\"\").fetchone()[0])
            """
        let cancelled = Int(try Subprocess.tool("python3", ["-c", script, stopped.ledger])
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        XCTAssertGreaterThan(cancelled, 0, "the running attempts were cancelled, recorded and released: \(stopped.stderr)")
        // Cancelled devices are counted as cancelled, as the ledger records them, never as failed
        // (a device whose attempt failed before the second signal may still be counted failed).
        XCTAssertEqual(stopped.summary["cancelled"] as? Int, cancelled)
    }

    /// A station frozen (SIGSTOP) in the middle of an attempt for longer than its lease: when it is
    /// continued its lease gate is shut, so the attempt stops without another write, is recorded as
    /// cancelled with kind claim-lost (never as a success) and its claim is given back.
    func testStationStoppedPastItsLeaseAbandonsTheAttempt() throws {
        let directory = try TemporaryDirectory()
        // 1 MB keeps each simulated attempt busy for more than half a second of real time.
        let package = try PackageCommandTests.makePackage(in: directory, size: 1_000_000)
        let ledger = directory.file("line.sqlite")
        let (process, output, errors) = try startBatch(["--profile", DFUKitBinary.shippedProfile, "--package", package,
                                                        "--device", "sim:vendor-ctrlpt?fleet=2000", "--ledger", "sqlite:\(ledger)",
                                                        "--station", "line-1", "--lease", "3s", "--json"], in: directory)
        func log() -> String { (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "" }
        func wait(until condition: () -> Bool) {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, process.isRunning, !condition() { Thread.sleep(forTimeInterval: 0.002) }
        }
        // Freeze it just after it started the second device's attempt, past its 3 s lease.
        wait { log().contains("C0:FF:EE:00:00:02: attempt 1 started") }
        kill(process.processIdentifier, SIGSTOP)
        Thread.sleep(forTimeInterval: 4)
        kill(process.processIdentifier, SIGCONT)
        wait { log().contains("claim lost") }
        kill(process.processIdentifier, SIGINT)
        let exited = Date().addingTimeInterval(60)
        while process.isRunning, Date() < exited { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130, log())
        XCTAssertTrue(log().contains("C0:FF:EE:00:00:02: claim lost, attempt stopped"), log())
        let script = """
            import json, sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            rows = db.execute("SELECT result, error_kind, bytes FROM dfukit_attempts WHERE device = 'C0:FF:EE:00:00:02'")
            print(json.dumps(rows.fetchall()))
            """
        let rows = try Subprocess.tool("python3", ["-c", script, ledger])
        let attempts = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(rows.utf8)) as? [[Any]])
        XCTAssertEqual(attempts.count, 1, rows)
        XCTAssertEqual(attempts.first?[0] as? String, "cancelled", rows)
        XCTAssertEqual(attempts.first?[1] as? String, "claim-lost", rows)
        XCTAssertLessThan(attempts.first?[2] as? Int ?? 1_000_000, 1_000_000, "the transfer did not go on: \(rows)")
        XCTAssertEqual(try activeClaims(ledger), 0, "no claim is left held")
        let printed = try String(contentsOfFile: output, encoding: .utf8)
        OutputSchemaCheck.assertValid(printed, against: "batch-run", label: "claim-lost")
        let summary = try jsonObject(printed)
        XCTAssertEqual(summary["claims_lost"] as? Int, 1)
        // Cancelled, as the ledger says, not failed (issue 21: batch run and batch report agree).
        XCTAssertEqual(summary["cancelled"] as? Int, 1)
        XCTAssertEqual(summary["failed"] as? Int, 0)
    }
}
