import DFULedger
import Foundation
import XCTest

/// The SQLite ledger: claims, done devices, leases, restarts, concurrency, durability settings,
/// and the errors for files that are not ledgers.
final class SQLiteLedgerTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        directory = nil
    }

    private func open(_ name: String = "ledger.sqlite", clock: LedgerClock = .system,
                      access: LedgerOptions.Access = .createIfMissing,
                      session: LedgerSession = .current()) async throws(LedgerError) -> SQLiteLedger {
        try await SQLiteLedger(path: directory.file(name), options: LedgerOptions(access: access, clock: clock, session: session))
    }

    func testAClaimedDeviceIsNotClaimedAgainUntilReleased() async throws {
        let ledger = try await open()
        let package = LedgerFixtures.package
        let claim = try await XCTUnwrapAsync(await ledger.claim(device: "C0:FF:EE:00:00:01", packageSHA256: package, station: "a"))
        XCTAssertEqual(claim.device, "C0:FF:EE:00:00:01")
        XCTAssertEqual(claim.station, "a")
        XCTAssertEqual(claim.nextAttemptNumber, 1)
        let again = try await ledger.claim(device: "C0:FF:EE:00:00:01", packageSHA256: package, station: "a")
        XCTAssertNil(again, "the same ledger instance already holds the claim")
        let other = try await ledger.claim(device: "C0:FF:EE:00:00:01", packageSHA256: package, station: "b")
        XCTAssertNil(other, "another station's live claim")
        let otherPackage = try await ledger.claim(device: "C0:FF:EE:00:00:01", packageSHA256: "cd", station: "b")
        XCTAssertNotNil(otherPackage, "claims are per package")

        try await ledger.recordAttempt(LedgerFixtures.attempt(claim, result: .failed, errorKind: "timeout",
                                                              errorMessage: "no response"))
        try await ledger.release(claim)
        let reclaimed = try await XCTUnwrapAsync(await ledger.claim(device: "C0:FF:EE:00:00:01", packageSHA256: package, station: "b"))
        XCTAssertNotEqual(reclaimed.id, claim.id)
        XCTAssertEqual(reclaimed.previousAttempts, 1)
        XCTAssertEqual(reclaimed.nextAttemptNumber, 2)
        let isDone = try await ledger.isDone(device: "C0:FF:EE:00:00:01", packageSHA256: package)
        XCTAssertFalse(isDone)
    }

    /// A claim repeated with its own id (a retry after an answer that was lost) finds its own row;
    /// another id is still refused while it is active.
    func testAClaimRepeatedWithItsIdFindsItsOwnRow() async throws {
        let ledger = try await open()
        let package = LedgerFixtures.package
        let first = try await ledger.claim(device: "C0:FF:EE:00:00:09", packageSHA256: package, station: "a", id: "claim-one")
        XCTAssertEqual(first?.id, "claim-one")
        let again = try await ledger.claim(device: "C0:FF:EE:00:00:09", packageSHA256: package, station: "a", id: "claim-one")
        XCTAssertEqual(again?.id, "claim-one")
        let other = try await ledger.claim(device: "C0:FF:EE:00:00:09", packageSHA256: package, station: "a", id: "claim-two")
        XCTAssertNil(other)
        try await ledger.recordAttempt(Attempt(claim: try XCTUnwrap(again), profile: "p", startedAt: Date(), endedAt: Date(),
                                               bytes: 1, result: .succeeded))
        let afterDone = try await ledger.claim(device: "C0:FF:EE:00:00:09", packageSHA256: package, station: "a", id: "claim-one")
        XCTAssertNil(afterDone, "a done device is not claimed again, whatever the id")
    }

    func testADoneDeviceIsSkippedForGoodEvenAfterReopening() async throws {
        let ledger = try await open()
        let package = LedgerFixtures.package
        let claim = try await XCTUnwrapAsync(await ledger.claim(device: "D1", packageSHA256: package, station: "a"))
        try await ledger.recordAttempt(LedgerFixtures.attempt(claim, result: .succeeded, serial: "SN-1"))
        try await ledger.release(claim)  // a no-op after a success
        var isDone = try await ledger.isDone(device: "D1", packageSHA256: package)
        XCTAssertTrue(isDone)
        await ledger.close()

        let reopened = try await open()
        isDone = try await reopened.isDone(device: "D1", packageSHA256: package)
        XCTAssertTrue(isDone)
        for station in ["a", "b"] {
            let claim = try await reopened.claim(device: "D1", packageSHA256: package, station: station)
            XCTAssertNil(claim, "station \(station) must not flash a done device again")
        }
        let attempts = try await reopened.attempts()
        XCTAssertEqual(attempts.count, 1)
        XCTAssertEqual(attempts.first?.serial, "SN-1")
    }

    func testAttemptsRoundTripEveryField() async throws {
        let ledger = try await open()
        let claim = try await XCTUnwrapAsync(await ledger.claim(device: "D2", packageSHA256: "p1", station: "line-1"))
        let failed = Attempt(claim: claim, serial: nil, profile: "nordic-secure-dfu",
                             startedAt: Date(timeIntervalSince1970: 1_714_550_400.125),
                             endedAt: Date(timeIntervalSince1970: 1_714_550_412.5), bytes: 4096, result: .failed,
                             errorKind: "device-error:0x05", errorMessage: "the device answered 'invalid object' (0x05)\nat offset 4096")
        let succeeded = Attempt(claim: claim, serial: "SN 42 ‘ü’", profile: "nordic-secure-dfu",
                                startedAt: Date(timeIntervalSince1970: 1_714_550_413), endedAt: Date(timeIntervalSince1970: 1_714_550_433),
                                bytes: 200_000, result: .succeeded, attemptNumber: 2, seconds: 18.5)
        try await ledger.recordAttempt(failed)
        try await ledger.recordAttempt(succeeded)
        let other = try await XCTUnwrapAsync(await ledger.claim(device: "D3", packageSHA256: "p2", station: "line-2"))
        try await ledger.recordAttempt(LedgerFixtures.attempt(other, result: .cancelled, offset: 100))

        let all = try await ledger.attempts()
        XCTAssertEqual(all, [failed, succeeded, LedgerFixtures.attempt(other, result: .cancelled, offset: 100)])
        XCTAssertEqual(all[1].bytesPerSecond, 200_000 / 18.5, accuracy: 1e-9)
        XCTAssertEqual(all[0].attemptNumber, 1)
        let byStation = try await ledger.attempts(AttemptFilter(station: "line-2"))
        XCTAssertEqual(byStation.map(\.device), ["D3"])
        let byPackage = try await ledger.attempts(AttemptFilter(packageSHA256: "p1"))
        XCTAssertEqual(byPackage.count, 2)
        let since = try await ledger.attempts(AttemptFilter(since: Date(timeIntervalSince1970: 1_714_550_413)))
        XCTAssertEqual(since.map(\.result), [.succeeded, .cancelled])
        let summary = try await ledger.summary()
        XCTAssertEqual(summary, LedgerSummary(devices: 2, succeeded: 1, failed: 0, cancelled: 1, attempts: 3))
    }

    func testAnExpiredLeaseLetsAnotherStationTakeTheDeviceAndTheFirstLearnsItLostIt() async throws {
        let clock = TestClock()
        let stationA = try await open(clock: clock.ledgerClock)
        let stationB = try await open(clock: clock.ledgerClock)
        let package = LedgerFixtures.package
        let claimA = try await XCTUnwrapAsync(await stationA.claim(device: "D4", packageSHA256: package, station: "a"))

        clock.advance(seconds: 599)
        var claimB = try await stationB.claim(device: "D4", packageSHA256: package, station: "b")
        XCTAssertNil(claimB, "the lease (600 s) has not run out")
        try await stationA.heartbeat(claimA)
        clock.advance(seconds: 599)
        claimB = try await stationB.claim(device: "D4", packageSHA256: package, station: "b")
        XCTAssertNil(claimB, "the heartbeat extended the lease")
        clock.advance(seconds: 2)
        claimB = try await stationB.claim(device: "D4", packageSHA256: package, station: "b")
        XCTAssertNotNil(claimB, "601 s after the last heartbeat the claim expired")

        do {
            try await stationA.heartbeat(claimA)
            XCTFail("the heartbeat of a lost claim must fail")
        } catch {
            XCTAssertEqual(error.kind, .claimLost)
            XCTAssertTrue(error.description.contains("station b took the device over"), error.description)
            XCTAssertTrue(error.description.contains("device D4"), error.description)
        }
        // Releasing the lost claim does not free station b's.
        try await stationA.release(claimA)
        let third = try await stationA.claim(device: "D4", packageSHA256: package, station: "c")
        XCTAssertNil(third)
    }

    func testARestartedStationReleasesWhatItsDeadProcessHeld() async throws {
        let package = LedgerFixtures.package
        let crashed = try await open(session: LedgerFixtures.endedProcessSession())
        let held = try await crashed.claim(device: "D5", packageSHA256: package, station: "line-1")
        XCTAssertNotNil(held)
        let otherDevice = try await crashed.claim(device: "D6", packageSHA256: package, station: "line-2")
        XCTAssertNotNil(otherDevice)
        // The process died holding the claim; a new process with the same station name starts.
        let restarted = try await open()
        var claim = try await restarted.claim(device: "D5", packageSHA256: package, station: "line-1")
        XCTAssertNil(claim, "without releaseEarlierClaims the lease still holds")
        let released = try await restarted.releaseEarlierClaims(station: "line-1")
        XCTAssertEqual(released, 1, "only line-1's claim")
        claim = try await restarted.claim(device: "D5", packageSHA256: package, station: "line-1")
        XCTAssertNotNil(claim)
        let stillHeld = try await restarted.claim(device: "D6", packageSHA256: package, station: "line-2")
        XCTAssertNil(stillHeld, "line-2's claim is untouched")
        let again = try await restarted.releaseEarlierClaims(station: "line-1")
        XCTAssertEqual(again, 0, "its own claims are not released")
        _ = crashed
    }

    /// A hung earlier process (still running here) or one on another host keeps its claims until
    /// their lease runs out: it would write again when it wakes, while the new process writes too.
    func testARestartedStationLeavesTheClaimsOfAProcessThatMayStillRunToTheirLease() async throws {
        let package = LedgerFixtures.package
        let hung = try await open(session: .current())
        let hungClaim = try await hung.claim(device: "D7", packageSHA256: package, station: "line-1")
        XCTAssertNotNil(hungClaim)
        let elsewhere = LedgerSession(host: "another-host", pid: 1, startTime: 1)
        let remote = try await open(session: elsewhere)
        let remoteClaim = try await remote.claim(device: "D8", packageSHA256: package, station: "line-1")
        XCTAssertNotNil(remoteClaim)
        let restarted = try await open()
        let released = try await restarted.releaseEarlierClaims(station: "line-1")
        XCTAssertEqual(released, 0)
        let d7 = try await restarted.claim(device: "D7", packageSHA256: package, station: "line-1")
        XCTAssertNil(d7, "the hung process's claim holds")
        let d8 = try await restarted.claim(device: "D8", packageSHA256: package, station: "line-1")
        XCTAssertNil(d8, "the other host's claim holds")
        _ = (hung, remote)
    }

    func testLedgerSessionsReadBackAndTellAnEndedProcess() {
        let current = LedgerSession.current()
        XCTAssertGreaterThan(current.startTime, 0, "this process's start time is read from /proc")
        XCTAssertEqual(LedgerSession(text: current.text), current)
        XCTAssertNil(LedgerSession(text: UUID().uuidString), "an older DFUKit's session")
        XCTAssertFalse(current.isProvablyGone(), "this process runs")
        XCTAssertTrue(LedgerFixtures.endedProcessSession().isProvablyGone(), "a reused pid")
        XCTAssertFalse(LedgerSession(host: "another-host", pid: 999_999, startTime: 1).isProvablyGone())
        XCTAssertTrue(LedgerSession(host: current.host, pid: 999_999_999, startTime: 1).isProvablyGone(), "no such pid")
    }

    func testManyTasksOnFourConnectionsNeverClaimADeviceTwice() async throws {
        // Two stations with two connections each.
        var connections: [any Ledger] = []
        for _ in 0..<4 { connections.append(try await open()) }
        let first = connections[0]
        let package = LedgerFixtures.package
        let devices = (0..<50).map { LedgerFixtures.device($0) }
        let winners = try await withThrowingTaskGroup(of: (String, String)?.self) { group in
            for task in 0..<200 {
                let ledger = connections[task % 4]
                let station = task.isMultiple(of: 2) ? "even" : "odd"
                let device = devices[task % devices.count]
                group.addTask {
                    try await LedgerFixtures.flashOnce(ledger, device: device, package: package, station: station)
                        ? (device, station) : nil
                }
            }
            var winners: [(String, String)] = []
            for try await winner in group { if let winner { winners.append(winner) } }
            return winners
        }
        XCTAssertEqual(winners.count, 50)
        XCTAssertEqual(Set(winners.map(\.0)), Set(devices))
        let attempts = try await first.attempts()
        XCTAssertEqual(attempts.count, 50)
        XCTAssertEqual(Set(attempts.map(\.device)).count, 50)
    }

    func testTheFileIsInWALModeWithFullSync() async throws {
        let ledger = try await open()
        let mode = try await ledger.journalMode()
        XCTAssertEqual(mode, "wal")
        let synchronous = try await ledger.synchronousSetting()
        XCTAssertEqual(synchronous, "FULL")
        let integrity = try await ledger.integrityCheck()
        XCTAssertEqual(integrity, ["ok"])
        await ledger.close()
        // Bytes 18 and 19 of the database header (file format write/read version) are 2 in WAL mode.
        let header = try XCTUnwrap(FileManager.default.contents(atPath: directory.file("ledger.sqlite")))
        XCTAssertEqual(Array(header[18...19]), [2, 2])
        let pythonMode = try Subprocess.tool("python3", ["-c", """
            import sqlite3, sys
            print(sqlite3.connect(sys.argv[1]).execute('PRAGMA journal_mode').fetchone()[0])
            """, directory.file("ledger.sqlite")])
        XCTAssertEqual(pythonMode, "wal\n")
    }

    func testOpeningAnExistingLedgerNeverCreatesOne() async throws {
        do {
            _ = try await open("missing.sqlite", access: .existing)
            XCTFail("opened a missing ledger")
        } catch {
            XCTAssertEqual(error.kind, .cannotOpen)
            XCTAssertTrue(error.description.hasPrefix("ledger sqlite:\(directory.file("missing.sqlite")): open the database: no such file"),
                          error.description)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.file("missing.sqlite")))

        _ = try Subprocess.tool("python3", ["-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                                            + "c.execute('CREATE TABLE t (x)'); c.commit()", directory.file("other.sqlite")])
        do {
            _ = try await open("other.sqlite", access: .existing)
            XCTFail("opened a database that is not a ledger")
        } catch {
            XCTAssertEqual(error.kind, .notALedger)
            XCTAssertTrue(error.message.contains("not a DFUKit ledger"), error.message)
        }
    }

    /// Issue 21: `--ledger sqlite:` naming another program's database never adds tables to it.
    func testAnUnrelatedDatabaseIsNotMadeALedger() async throws {
        let path = directory.file("app.sqlite")
        _ = try Subprocess.tool("python3", ["-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                                            + "c.execute('CREATE TABLE customers (name)'); c.commit()", path])
        do {
            _ = try await open("app.sqlite", access: .createIfMissing)
            XCTFail("made a ledger in another program's database")
        } catch {
            XCTAssertEqual(error.kind, .notALedger)
            XCTAssertTrue(error.message.contains("holds other tables (customers)"), error.message)
        }
        let tables = try Subprocess.tool("python3", ["-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                                                     + "print(sorted(r[0] for r in c.execute(\"SELECT name FROM sqlite_master WHERE type='table'\")))",
                                                     path])
        XCTAssertEqual(tables.trimmingCharacters(in: .whitespacesAndNewlines), "['customers']")
    }

    /// Issue 21: a report reads the ledger without writing to it or leaving a file beside it
    /// (files a report's user would own stop the station later: "attempt to write a readonly
    /// database"), and still reads what a station that holds it open has written.
    func testAReportLeavesNoFileBesideTheLedger() async throws {
        let station = try await open()
        let claim = try await XCTUnwrapAsync(await station.claim(device: "C0:FF:EE:00:00:01", packageSHA256: LedgerFixtures.package,
                                                                 station: "a"))
        try await station.recordAttempt(LedgerFixtures.attempt(claim, result: .succeeded))
        await station.close()
        let files = { try FileManager.default.contentsOfDirectory(atPath: self.directory.path).sorted() }
        XCTAssertEqual(try files(), ["ledger.sqlite"], "a closed ledger is one file")
        let report = try await open(access: .existing)
        let summary = try await report.summary()
        XCTAssertEqual(try files(), ["ledger.sqlite"], "the open report made no -wal or -shm file")
        await report.close()
        XCTAssertEqual(try files(), ["ledger.sqlite"])
        XCTAssertEqual(summary.devices, 1, "\(summary)")

        // A station holds it open: the report reads through the station's WAL, including what
        // is only in the WAL so far.
        let running = try await open()
        let second = try await XCTUnwrapAsync(await running.claim(device: "C0:FF:EE:00:00:02", packageSHA256: LedgerFixtures.package,
                                                                  station: "a"))
        try await running.recordAttempt(LedgerFixtures.attempt(second, result: .succeeded))
        let live = try await open(access: .existing)
        let liveSummary = try await live.summary()
        XCTAssertEqual(liveSummary.devices, 2, "\(liveSummary)")
        await live.close()
        await running.close()
    }

    func testAFileThatIsNotADatabaseIsNotALedger() async throws {
        try Data("this is a firmware package, not a ledger\n".utf8).write(to: URL(fileURLWithPath: directory.file("x.zip")))
        for access in [LedgerOptions.Access.existing, .createIfMissing] {
            do {
                _ = try await open("x.zip", access: access)
                XCTFail("opened a text file as a ledger")
            } catch {
                XCTAssertEqual(error.kind, .notALedger, "\(access)")
                XCTAssertTrue(error.description.contains("SQLITE_NOTADB"), error.description)
            }
        }
    }

    func testALedgerFromANewerDFUKitIsRefused() async throws {
        let ledger = try await open()
        await ledger.close()
        _ = try Subprocess.tool("python3", ["-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                                            + "c.execute('UPDATE dfukit_schema SET version = 7'); c.commit()",
                                            directory.file("ledger.sqlite")])
        do {
            _ = try await open(access: .existing)
            XCTFail("opened a newer ledger")
        } catch {
            XCTAssertEqual(error.kind, .notALedger)
            XCTAssertTrue(error.message.contains("schema version 7"), error.message)
        }
    }

    func testEmptyNamesAreRefusedBeforeAnythingIsWritten() async throws {
        let ledger = try await open()
        do {
            _ = try await ledger.claim(device: " ", packageSHA256: "p", station: "a")
            XCTFail("claimed an empty address")
        } catch {
            XCTAssertEqual(error.kind, .invalidArgument)
            XCTAssertTrue(error.message.contains("device address is empty"), error.message)
        }
        let attempts = try await ledger.attempts()
        XCTAssertTrue(attempts.isEmpty)
    }

    func testAnUnwritableDirectoryIsReportedWithThePath() async throws {
        do {
            _ = try await SQLiteLedger(path: "/nonexistent-dir/ledger.sqlite")
            XCTFail("opened a ledger in a missing directory")
        } catch {
            XCTAssertEqual(error.kind, .cannotOpen)
            XCTAssertTrue(error.description.contains("/nonexistent-dir/ledger.sqlite"), error.description)
            XCTAssertTrue(error.description.contains("SQLITE_CANTOPEN"), error.description)
        }
    }
}

/// `XCTUnwrap` for an optional produced by an `await`.
func XCTUnwrapAsync<T>(_ value: T?, _ message: String = "", file: StaticString = #filePath,
                       line: UInt = #line) async throws -> T {
    try XCTUnwrap(value, message, file: file, line: line)
}

/// Halts, resumes, quarantines and releases in a SQLite ledger (schema 4).
final class SQLiteLineControlTests: XCTestCase {
    func testLineControlsAreRecordedOnceAndRestartTheirCounts() async throws {
        let directory = try TemporaryDirectory()
        let ledger = try await SQLiteLedger(path: directory.file("ledger.sqlite"))
        try await LineControlFixtures.exercise(ledger, line: "L", package: LedgerFixtures.package, prefix: "C0:FF:EE")
        await ledger.close()
    }

    /// A version 3 ledger (attempts without a line, no line events) opened by a station: migrated
    /// to 4, its attempts kept with no line; a report reading a version 3 ledger sees no events.
    func testAVersion3LedgerMigratesTo4() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("v3.sqlite")
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.executescript('''
            CREATE TABLE dfukit_schema (version INTEGER NOT NULL);
            INSERT INTO dfukit_schema VALUES (3);
            CREATE TABLE dfukit_claims (device TEXT NOT NULL, package_sha256 TEXT NOT NULL, claim_id TEXT NOT NULL,
                station TEXT NOT NULL, session TEXT NOT NULL, state TEXT NOT NULL, claimed_at REAL NOT NULL,
                heartbeat_at REAL NOT NULL, PRIMARY KEY (device, package_sha256));
            CREATE TABLE dfukit_attempts (id INTEGER PRIMARY KEY AUTOINCREMENT, claim_id TEXT NOT NULL, device TEXT NOT NULL,
                serial TEXT, package_sha256 TEXT NOT NULL, profile TEXT NOT NULL, station TEXT NOT NULL,
                started_at REAL NOT NULL, ended_at REAL NOT NULL, bytes INTEGER NOT NULL, result TEXT NOT NULL,
                error_kind TEXT, error_message TEXT, attempt_number INTEGER NOT NULL, seconds REAL NOT NULL,
                bytes_per_second REAL NOT NULL, clock TEXT, device_version TEXT);
            CREATE TABLE dfukit_audit_records (attempt_id INTEGER PRIMARY KEY, record TEXT NOT NULL,
                signature TEXT NOT NULL, key_id TEXT NOT NULL);
            INSERT INTO dfukit_attempts (claim_id, device, package_sha256, profile, station, started_at, ended_at, bytes,
                result, attempt_number, seconds, bytes_per_second) VALUES ('c1', 'D1', 'p', 'vendor-ctrlpt', 'old',
                50, 62, 1200, 'failed', 1, 12, 100);
            ''')
            db.commit()
            """
        _ = try Subprocess.tool("python3", ["-c", script, path])
        let reader = try await SQLiteLedger(path: path, options: LedgerOptions(access: .existing))
        let none = try await reader.lineEvents(line: nil)
        XCTAssertEqual(none, [])
        await reader.close()

        let station = try await SQLiteLedger(path: path)
        let attempts = try await station.attempts()
        XCTAssertEqual(attempts.map(\.line), [nil])
        let version = try Subprocess.tool("python3", ["-c", "import sqlite3, sys; print(sqlite3.connect(sys.argv[1])"
                                                      + ".execute('SELECT version FROM dfukit_schema').fetchone()[0])", path])
        XCTAssertEqual(version.trimmingCharacters(in: .whitespacesAndNewlines), "5")
        try await LineControlFixtures.exercise(station, line: "L", package: LedgerFixtures.package, prefix: "C0:FF:EE")
        await station.close()
    }
}
