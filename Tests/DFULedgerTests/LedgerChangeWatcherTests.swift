import DFULedger
import Foundation
import XCTest

/// The SQLite change watcher: quiet while nothing is written, a change seen when another
/// connection of this process or another process commits, several changes seen as one.
final class LedgerChangeWatcherTests: XCTestCase {
    func testTheSQLiteWatcherSeesCommitsOfOtherConnectionsAndProcesses() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("ledger.sqlite")
        let station = try await SQLiteLedger(path: path)
        let watcher = try await LedgerChangeWatcher(.sqlite(path: path))
        XCTAssertEqual(watcher.location, "sqlite:\(path)")
        var changed = try await watcher.next(timeout: .milliseconds(400))
        XCTAssertFalse(changed, "nothing was written")

        try await station.announceStation(StationStatus(station: "st-1", session: station.session, line: nil,
                                                        state: .running))
        try await station.publishLive(LiveDevice(device: "D1", packageSHA256: LedgerFixtures.package, station: "st-1",
                                                 session: station.session.text, attempt: 1, phase: "connecting",
                                                 startedAt: Date()))
        let started = ContinuousClock.now
        changed = try await watcher.next(timeout: .seconds(5))
        XCTAssertTrue(changed, "another connection's commit")
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(1), "seen within a poll or two")
        changed = try await watcher.next(timeout: .milliseconds(400))
        XCTAssertFalse(changed, "two commits, one change")

        // Another process writes (as a station on the same file would).
        _ = try Subprocess.tool("python3", ["-c", """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE dfukit_live SET phase = 'transfer'")
            db.commit()
            """, path])
        changed = try await watcher.next(timeout: .seconds(5))
        XCTAssertTrue(changed, "another process's commit")
        let live = try await station.liveDevices()
        XCTAssertEqual(live.map(\.phase), ["transfer"])

        await watcher.close()
        do {
            _ = try await watcher.next(timeout: .milliseconds(10))
            XCTFail("a closed watcher answered")
        } catch {
            XCTAssertEqual(error.kind, .cannotOpen)
        }
        await station.close()
    }

    func testAWatcherNeedsALedgerFile() async throws {
        let directory = try TemporaryDirectory()
        do {
            _ = try await LedgerChangeWatcher(.sqlite(path: directory.file("missing.sqlite")))
            XCTFail("watching a missing file")
        } catch {
            XCTAssertEqual(error.kind, .cannotOpen)
        }
    }
}
