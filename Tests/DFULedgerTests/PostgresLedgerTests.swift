import DFULedger
import Foundation
import XCTest

/// The PostgreSQL ledger against a real server. `make test-postgres` starts one
/// (scripts/start-postgres.sh) and sets `DFUKIT_TEST_POSTGRES_URL`; without it every test here is
/// reported as skipped, never as passed. Each test uses package digests of its own, so tests and
/// reruns share the database without seeing each other's devices.
final class PostgresLedgerTests: XCTestCase {
    private var url: LedgerURL!

    override func setUpWithError() throws {
        guard let text = ProcessInfo.processInfo.environment["DFUKIT_TEST_POSTGRES_URL"], !text.isEmpty else {
            throw XCTSkip("set DFUKIT_TEST_POSTGRES_URL (make test-postgres starts a server)")
        }
        url = try LedgerURL(parsing: text)
    }

    func open(clock: LedgerClock = .system, session: LedgerSession = .current()) async throws(LedgerError) -> any Ledger {
        try await url.open(LedgerOptions(clock: clock, session: session))
    }

    func testTwoStationsClaimingTheSameFiftyDevicesFlashEachExactlyOnce() async throws {
        let package = LedgerFixtures.freshPackage()
        let devices = (0..<50).map { LedgerFixtures.device($0, prefix: "PG:00:02") }
        // Two stations, each with two connections (ledger instances), 8 tasks per connection, every
        // task walking the whole line from a different starting point.
        var ledgers: [(station: String, ledger: any Ledger)] = []
        for station in ["station-a", "station-b"] {
            for _ in 0..<2 { ledgers.append((station, try await open())) }
        }
        let tasks = ledgers.count * 8
        let flashed = try await withThrowingTaskGroup(of: [(String, String)].self) { group in
            for task in 0..<tasks {
                let (station, ledger) = ledgers[task % ledgers.count]
                group.addTask {
                    var mine: [(String, String)] = []
                    for step in 0..<devices.count {
                        let device = devices[(task * 7 + step) % devices.count]
                        if try await LedgerFixtures.flashOnce(ledger, device: device, package: package, station: station) {
                            mine.append((device, station))
                        }
                    }
                    return mine
                }
            }
            var all: [(String, String)] = []
            for try await mine in group { all += mine }
            return all
        }
        XCTAssertEqual(flashed.count, 50, "claims granted: \(flashed.count)")
        XCTAssertEqual(Set(flashed.map(\.0)), Set(devices))
        let attempts = try await ledgers[0].ledger.attempts(AttemptFilter(packageSHA256: package))
        XCTAssertEqual(attempts.count, 50)
        XCTAssertEqual(Set(attempts.map(\.device)).count, 50, "a device was flashed twice")
        XCTAssertEqual(Set(attempts.map(\.station)), ["station-a", "station-b"], "both stations took part")
        for (_, ledger) in ledgers {
            let isDone = try await ledger.isDone(device: devices[0], packageSHA256: package)
            XCTAssertTrue(isDone)
            await ledger.close()
        }
    }

    func testClaimsReleaseDoneAndAttemptNumbers() async throws {
        let ledger = try await open()
        let package = LedgerFixtures.freshPackage()
        let claim = try await XCTUnwrapAsync(await ledger.claim(device: "PG-1", packageSHA256: package, station: "a"))
        XCTAssertEqual(claim.previousAttempts, 0)
        var again = try await ledger.claim(device: "PG-1", packageSHA256: package, station: "b")
        XCTAssertNil(again)
        try await ledger.recordAttempt(LedgerFixtures.attempt(claim, result: .failed, errorKind: "timeout",
                                                              errorMessage: "no answer"))
        try await ledger.release(claim)
        let second = try await XCTUnwrapAsync(await ledger.claim(device: "PG-1", packageSHA256: package, station: "b"))
        XCTAssertEqual(second.nextAttemptNumber, 2)
        try await ledger.recordAttempt(LedgerFixtures.attempt(second, result: .succeeded, offset: 30))
        try await ledger.release(second)
        again = try await ledger.claim(device: "PG-1", packageSHA256: package, station: "c")
        XCTAssertNil(again, "done devices are never claimed again")
        let isDone = try await ledger.isDone(device: "PG-1", packageSHA256: package)
        XCTAssertTrue(isDone)
        let summary = try await ledger.summary(AttemptFilter(packageSHA256: package))
        XCTAssertEqual(summary, LedgerSummary(devices: 1, succeeded: 1, failed: 0, cancelled: 0, attempts: 2))
    }

    func testAttemptsRoundTripEveryField() async throws {
        let ledger = try await open()
        let package = LedgerFixtures.freshPackage()
        let claim = try await XCTUnwrapAsync(await ledger.claim(device: "PG-2", packageSHA256: package, station: "line-1"))
        let failed = Attempt(claim: claim, serial: nil, profile: "mcumgr-smp",
                             startedAt: Date(timeIntervalSince1970: 1_714_550_400.125),
                             endedAt: Date(timeIntervalSince1970: 1_714_550_412.5), bytes: 4096, result: .failed,
                             errorKind: "smp-error:rc=3", errorMessage: "the device said 'no memory' (rc 3); 'quotes' \\ \n")
        let succeeded = Attempt(claim: claim, serial: "SN 42 ‘ü’", profile: "mcumgr-smp",
                                startedAt: Date(timeIntervalSince1970: 1_714_550_413),
                                endedAt: Date(timeIntervalSince1970: 1_714_550_433.75), bytes: 200_000, result: .succeeded,
                                attemptNumber: 2, seconds: 18.5)
        try await ledger.recordAttempt(failed)
        try await ledger.recordAttempt(succeeded)
        let read = try await ledger.attempts(AttemptFilter(packageSHA256: package))
        XCTAssertEqual(read.count, 2)
        XCTAssertEqual(read.first, failed)
        XCTAssertEqual(read.last, succeeded)
        let since = try await ledger.attempts(AttemptFilter(packageSHA256: package,
                                                            since: Date(timeIntervalSince1970: 1_714_550_413)))
        XCTAssertEqual(since.map(\.result), [.succeeded])
    }

    func testAnExpiredLeaseIsTakenOverAndTheFirstStationLearnsItLostTheClaim() async throws {
        let clock = TestClock(Date())
        let stationA = try await open(clock: clock.ledgerClock)
        let stationB = try await open(clock: clock.ledgerClock)
        let package = LedgerFixtures.freshPackage()
        let claimA = try await XCTUnwrapAsync(await stationA.claim(device: "PG-3", packageSHA256: package, station: "a"))
        clock.advance(seconds: 590)
        var claimB = try await stationB.claim(device: "PG-3", packageSHA256: package, station: "b")
        XCTAssertNil(claimB)
        try await stationA.heartbeat(claimA)
        clock.advance(seconds: 590)
        claimB = try await stationB.claim(device: "PG-3", packageSHA256: package, station: "b")
        XCTAssertNil(claimB, "the heartbeat extended the lease")
        clock.advance(seconds: 20)
        claimB = try await stationB.claim(device: "PG-3", packageSHA256: package, station: "b")
        XCTAssertNotNil(claimB)
        do {
            try await stationA.heartbeat(claimA)
            XCTFail("the heartbeat of a lost claim must fail")
        } catch {
            XCTAssertEqual(error.kind, .claimLost)
            XCTAssertTrue(error.description.contains("station b took the device over"), error.description)
        }
    }

    func testARestartedStationResumesWhereItStopped() async throws {
        let package = LedgerFixtures.freshPackage()
        let devices = (0..<10).map { "PG-R\($0)" }
        let crashed = try await open(session: LedgerFixtures.endedProcessSession())
        for device in devices.prefix(4) {
            try await LedgerFixtures.flashOnce(crashed, device: device, package: package, station: "line-9")
        }
        _ = try await crashed.claim(device: devices[4], packageSHA256: package, station: "line-9")  // held when it "died"
        let restarted = try await open()
        let released = try await restarted.releaseEarlierClaims(station: "line-9")
        XCTAssertEqual(released, 1)
        var flashed: [String] = []
        for device in devices where try await LedgerFixtures.flashOnce(restarted, device: device, package: package,
                                                                        station: "line-9") {
            flashed.append(device)
        }
        XCTAssertEqual(flashed, Array(devices[4...]))
        let attempts = try await restarted.attempts(AttemptFilter(packageSHA256: package))
        XCTAssertEqual(attempts.map(\.device), devices)
    }

    func testTheReportReadsThePostgresLedger() async throws {
        let ledger = try await open()
        let package = LedgerFixtures.freshPackage()
        for index in 0..<6 {
            let claim = try await XCTUnwrapAsync(await ledger.claim(device: "PG-REPORT-\(index)", packageSHA256: package,
                                                                    station: "s"))
            let failed = index == 5
            try await ledger.recordAttempt(LedgerFixtures.attempt(claim, result: failed ? .failed : .succeeded,
                                                                  offset: Double(index) * 12,
                                                                  errorKind: failed ? "disconnected" : nil))
        }
        let report = try await BatchReport.load(from: ledger, filter: AttemptFilter(packageSHA256: package))
        XCTAssertEqual(report.devices, 6)
        XCTAssertEqual(report.succeeded, 5)
        XCTAssertEqual(report.failed, 1)
        XCTAssertEqual(report.byCause.map(\.kind), ["disconnected"])
        XCTAssertTrue(report.ledger.hasPrefix("postgresql://"))
        XCTAssertFalse(report.ledger.contains(":dfukit@"), "the password must not reach reports: \(report.ledger)")
    }

    func testWrongCredentialsAreReportedWithoutThePassword() async throws {
        guard case .postgresql(var location) = url else { return XCTFail("not a PostgreSQL URL") }
        location.connectionString = location.connectionString.replacingOccurrences(of: ":dfukit@", with: ":wrong-secret@")
        do {
            _ = try await PostgresLedger(location)
            XCTFail("connected with a wrong password")
        } catch {
            XCTAssertEqual(error.kind, .cannotOpen)
            XCTAssertTrue(error.description.contains("connect to the server"), error.description)
            XCTAssertTrue(error.description.contains("password authentication failed"), error.description)
            XCTAssertFalse(error.description.contains("wrong-secret"), error.description)
        }
    }

    func testWritesPerSecondBenchmark() async throws {
        let ledger = try await open()
        let measurement = try await LedgerBenchmark.writesPerSecond(ledger: ledger, count: 50, concurrency: 2)
        XCTAssertEqual(measurement.writes, 100)
        XCTAssertGreaterThan(measurement.writesPerSecond, 0)
        print("ledger benchmark: PostgreSQL: \(Int(measurement.writesPerSecond)) writes/s (debug build)")
    }
}
