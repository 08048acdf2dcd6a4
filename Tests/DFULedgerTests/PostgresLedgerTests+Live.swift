@testable import DFULedger
import Foundation
import XCTest

/// Schema 5 on PostgreSQL: live rows and station rows, every write but a heartbeat announced with
/// `NOTIFY dfukit_ledger` and seen by a `LedgerChangeWatcher` on its own connection, which
/// reconnects when its backend is terminated (as in a server restart) and counts that as a
/// change. Runs in `make test-postgres` (skipped, never passed, without `DFUKIT_TEST_POSTGRES_URL`).
extension PostgresLedgerTests {
    /// The server's URL (set: `setUpWithError` skipped the test otherwise).
    private var serverText: String { ProcessInfo.processInfo.environment["DFUKIT_TEST_POSTGRES_URL"] ?? "" }

    func testLiveAndStationRowsRoundTripAndARecordClearsItsRow() async throws {
        let ledger = try await LedgerURL(parsing: serverText).open()
        let package = LedgerFixtures.freshPackage()
        let device = LedgerFixtures.device(1, prefix: "PG:00:0B")
        let claim = try await XCTUnwrapAsync(await ledger.claim(device: device, packageSHA256: package, station: "pg-live"))
        let started = Date(timeIntervalSince1970: 1_714_550_400.25)
        let row = LiveDevice(device: device, packageSHA256: package, station: "pg-live", session: ledger.session.text,
                             radio: "hci0", line: "L", attempt: 1, phase: "transfer", done: 4096, total: 65_536,
                             bytesPerSecond: 2048.5, rssi: -61, phy: "2M", mtu: 247, startedAt: started)
        try await ledger.publishLive(row)
        var mine = try await ledger.liveDevices().filter { $0.packageSHA256 == package }
        XCTAssertEqual(mine.count, 1)
        var expected = row
        expected.updatedAt = try XCTUnwrap(mine.first).updatedAt
        XCTAssertEqual(mine.first, expected)
        XCTAssertLessThan(abs(expected.updatedAt.timeIntervalSinceNow), 60, "stamped by the server's clock")

        try await ledger.recordAttempt(LedgerFixtures.attempt(claim, result: .failed, errorKind: "timeout"))
        mine = try await ledger.liveDevices().filter { $0.packageSHA256 == package }
        XCTAssertEqual(mine, [], "cleared in the attempt's transaction")
        try await ledger.publishLive(row)
        try await ledger.release(claim)
        mine = try await ledger.liveDevices().filter { $0.packageSHA256 == package }
        XCTAssertEqual(mine, [], "cleared by the release")

        let session = LedgerSession(host: "pg-host", pid: 4242, startTime: 1)
        try await ledger.announceStation(StationStatus(station: "pg-live", session: session, line: "L", radios: ["hci0"],
                                                       state: .running, startedAt: started))
        try await ledger.announceStation(StationStatus(station: "pg-live", session: session, line: "L", radios: ["hci0"],
                                                       state: .ended, startedAt: Date()))
        let allStations = try await ledger.stations()
        let station = try XCTUnwrap(allStations.first { $0.session == session.text })
        XCTAssertEqual(station.state, .ended)
        XCTAssertEqual(station.startedAt, started, "the first announcement's start is kept")
        XCTAssertEqual(station.host, "pg-host")
        XCTAssertEqual(station.pid, 4242)
        XCTAssertEqual(station.radios, ["hci0"])

        let again = try await XCTUnwrapAsync(await ledger.claim(device: device, packageSHA256: package, station: "pg-live"))
        var attempt = LedgerFixtures.attempt(again, result: .succeeded)
        attempt.radio = "hci0"
        try await ledger.recordAttempt(attempt)
        let radios = try await ledger.attempts(AttemptFilter(packageSHA256: package)).map(\.radio)
        XCTAssertEqual(radios, [nil, "hci0"])
        await ledger.close()
    }

    func testTheWatcherSeesAnotherConnectionsCommitsButNotHeartbeats() async throws {
        let url = try LedgerURL(parsing: serverText)
        let ledger = try await url.open()
        let watcher = try await LedgerChangeWatcher(url)
        var changed = try await watcher.next(timeout: .milliseconds(300))
        XCTAssertFalse(changed, "nothing was written")

        let package = LedgerFixtures.freshPackage()
        let device = LedgerFixtures.device(2, prefix: "PG:00:0B")
        let claim = try await XCTUnwrapAsync(await ledger.claim(device: device, packageSHA256: package, station: "pg-w"))
        changed = try await watcher.next(timeout: .seconds(5))
        XCTAssertTrue(changed, "a granted claim")
        let refused = try await ledger.claim(device: device, packageSHA256: package, station: "pg-other")
        XCTAssertNil(refused)
        try await ledger.heartbeat(claim)
        changed = try await watcher.next(timeout: .milliseconds(500))
        XCTAssertFalse(changed, "a refused claim and a heartbeat change nothing the dashboard shows")

        try await ledger.publishLive(LiveDevice(device: device, packageSHA256: package, station: "pg-w",
                                                session: ledger.session.text, attempt: 1, phase: "transfer",
                                                startedAt: Date()))
        let started = ContinuousClock.now
        changed = try await watcher.next(timeout: .seconds(5))
        XCTAssertTrue(changed)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(1), "delivered at the commit, not at a poll")
        for write in ["record", "event", "station"] {
            switch write {
            case "record": try await ledger.recordAttempt(LedgerFixtures.attempt(claim, result: .succeeded))
            case "event":
                _ = try await ledger.recordLineEvent(LineEvent(kind: .quarantined, line: "pg-w", device: device,
                                                               packageSHA256: package))
            default:
                try await ledger.announceStation(StationStatus(station: "pg-w", session: ledger.session, line: nil,
                                                               state: .running))
            }
            changed = try await watcher.next(timeout: .seconds(5))
            XCTAssertTrue(changed, write)
            changed = try await watcher.next(timeout: .milliseconds(100))
            XCTAssertFalse(changed, "one change per commit: \(write)")
        }
        await watcher.close()
        await ledger.close()
    }

    func testTheWatcherReconnectsAfterItsBackendIsTerminated() async throws {
        let application = "dfukit-watch-\(UUID().uuidString.prefix(8))"
        let separator = serverText.contains("?") ? "&" : "?"
        let watcher = try await LedgerChangeWatcher(LedgerURL(parsing: serverText + separator
                                                              + "application_name=\(application)"))
        let administrator = try PostgresConnection(connectionString: serverText, location: "administrator")
        let terminated = try administrator.query(
            "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1",
            [application], operation: "terminate the watcher's backend")
        XCTAssertEqual(terminated.first?.first, "1", "the watcher's connection was live")

        let changed = try await watcher.next(timeout: .seconds(10))
        XCTAssertTrue(changed, "a reconnection counts as a change: writes meanwhile were not announced")
        let backends = try administrator.query("SELECT count(*) FROM pg_stat_activity WHERE application_name = $1",
                                               [application], operation: "count the watcher's backends")
        XCTAssertEqual(backends.first?.first, "1", "it is connected again")

        let ledger = try await LedgerURL(parsing: serverText).open()
        let quiet = try await watcher.next(timeout: .milliseconds(300))
        XCTAssertFalse(quiet)
        try await ledger.announceStation(StationStatus(station: "pg-w2", session: ledger.session, line: nil, state: .ended))
        let seen = try await watcher.next(timeout: .seconds(5))
        XCTAssertTrue(seen, "and it listens again")
        await ledger.close()
        await watcher.close()
        administrator.close()
    }
}
