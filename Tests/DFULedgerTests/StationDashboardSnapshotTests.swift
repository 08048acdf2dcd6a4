import DFUBytes
import DFULedger
import Foundation
import XCTest

/// The station dashboard's snapshot over a ledger built by hand (SQLite): totals, yield and
/// first-pass yield, failures by cause, hours, recent attempts with their audit mark, line
/// states, stations gone or ended and their devices in flight left out; one line's view; the
/// JSON's names and formats; a device's history.
final class StationDashboardSnapshotTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private let clock = TestClock()
    private let package = LedgerFixtures.package
    /// 09:13:20 on the fixtures' day: D2 and D4 were done in the last hour, D1 before it.
    private var now: Date { LedgerFixtures.start.addingTimeInterval(4400) }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        directory = nil
    }

    /// Records `results` (offsets in seconds from the fixtures' start, 10 s each) for `device`
    /// on `line`, one claim per attempt; the attempts in order.
    @discardableResult
    private func record(_ ledger: any Ledger, _ device: String, line: String,
                        _ results: [(Attempt.Result, Double, String?)], audit key: Ed25519PrivateKey? = nil) async throws
        -> [Attempt] {
        var attempts: [Attempt] = []
        for (result, offset, kind) in results {
            let claim = try await XCTUnwrapAsync(await ledger.claim(device: device, packageSHA256: package, station: "st-1"))
            var attempt = LedgerFixtures.attempt(claim, result: result, offset: offset, errorKind: kind,
                                                 errorMessage: kind.map { "the device did not answer: \($0)" })
            attempt.line = line
            try await ledger.recordAttempt(attempt, audit: key.map {
                SignedAuditRecord(signing: AuditFixtures.record(for: attempt), with: $0)
            })
            try await ledger.release(claim)
            attempts.append(attempt)
        }
        return attempts
    }

    /// The line of the class comment: D1 first time, D2 after a timeout, D3 failing twice (and
    /// quarantined), D4 skipped, D5 cancelled on line A; E1 failed on line B; line A halted.
    /// Stations: st-1 running (D6 in flight on hci0), st-2 last seen 60 s ago (D7 in flight:
    /// left out), st-3 ended.
    private func makeLine() async throws -> (SQLiteLedger, key: Ed25519PrivateKey) {
        let ledger = try await SQLiteLedger(path: directory.file("ledger.sqlite"),
                                            options: LedgerOptions(clock: clock.ledgerClock))
        let key = try Ed25519PrivateKey.generate()
        try await record(ledger, "D1", line: "A", [(.succeeded, 0, nil)])
        try await record(ledger, "D2", line: "A", [(.failed, 100, "timeout"), (.succeeded, 3700, nil)])
        try await record(ledger, "D3", line: "A", [(.failed, 200, "timeout"), (.failed, 3800, "disconnected")])
        try await record(ledger, "D4", line: "A", [(.skipped, 3900, nil)])
        try await record(ledger, "D5", line: "A", [(.cancelled, 4000, "cancelled")])
        try await record(ledger, "E1", line: "B", [(.failed, 4100, "timeout")], audit: key)
        clock.advance(seconds: 4400 - 60)
        let quarantined = try await ledger.recordLineEvent(LineEvent(kind: .quarantined, line: "A", station: "st-1",
                                                                     reason: "2 failed", device: "D3", packageSHA256: package))
        XCTAssertTrue(quarantined)
        let gone = LedgerFixtures.endedProcessSession()
        try await ledger.announceStation(StationStatus(station: "st-2", session: gone, line: "A", state: .running,
                                                       startedAt: clock.now))
        try await ledger.publishLive(LiveDevice(device: "D7", packageSHA256: package, station: "st-2", session: gone.text,
                                                line: "A", attempt: 1, phase: "transfer", startedAt: clock.now))
        clock.advance(seconds: 55)
        try await ledger.announceStation(StationStatus(station: "st-1", session: ledger.session, line: "A", radios: ["hci0"],
                                                       state: .running, startedAt: clock.now))
        try await ledger.publishLive(LiveDevice(device: "D6", packageSHA256: package, station: "st-1",
                                                session: ledger.session.text, radio: "hci0", line: "A", attempt: 2,
                                                phase: "transfer", done: 12_288, total: 65_536, bytesPerSecond: 8123.4,
                                                rssi: -48, phy: "2M", mtu: 247, startedAt: clock.now))
        let ended = LedgerSession(host: "line-pc-3", pid: 77, startTime: 1)
        try await ledger.announceStation(StationStatus(station: "st-3", session: ended, line: "B", state: .ended,
                                                       startedAt: clock.now.addingTimeInterval(1)))
        let halted = try await ledger.recordLineEvent(LineEvent(kind: .halted, line: "A", station: "st-1",
                                                                reason: "2 of 3 failed", rule: "failed >= 2 of last 3",
                                                                attempts: ["D3 #2 on st-1: failed"]))
        XCTAssertTrue(halted)
        clock.advance(seconds: 5)
        XCTAssertEqual(clock.now, now)
        return (ledger, key)
    }

    func testTheWholeLedger() async throws {
        let (ledger, _) = try await makeLine()
        let snapshot = try await StationDashboardSnapshot.build(from: ledger, now: now, controlsEnabled: true)
        await ledger.close()

        XCTAssertEqual(snapshot.totals, StationDashboardSnapshot.Totals(
            devices: 6, done: 3, failed: 2, inFlight: 1, quarantined: 1, attempts: 8, yield: 0.5,
            firstPassYield: 1.0 / 6.0, devicesPerHour: 2))
        XCTAssertEqual(snapshot.failuresByCause, [.init(cause: "timeout", attempts: 3, devices: 3),
                                                  .init(cause: "disconnected", attempts: 1, devices: 1)])
        let eight = LedgerFixtures.start
        XCTAssertEqual(snapshot.hourly, [.init(hour: eight, done: 1, failed: 2),
                                         .init(hour: eight.addingTimeInterval(3600), done: 2, failed: 2)])
        XCTAssertEqual(snapshot.recentAttempts.map(\.attempt.device), ["E1", "D5", "D4", "D3", "D3", "D2", "D2", "D1"])
        XCTAssertEqual(snapshot.recentAttempts.map(\.audited), [true] + Array(repeating: false, count: 7))
        XCTAssertEqual(snapshot.lines.map(\.name), ["A", "B"])
        XCTAssertEqual(snapshot.lines.map(\.state), ["halted", "running"])
        XCTAssertEqual(snapshot.lines[0].halt?.rule, "failed >= 2 of last 3")
        XCTAssertEqual(snapshot.events.map(\.kind), [.halted, .quarantined], "newest first")

        XCTAssertEqual(snapshot.stations.map(\.status.station), ["st-2", "st-1", "st-3"])
        XCTAssertEqual(snapshot.stations.map(\.state), [.gone, .running, .ended])
        XCTAssertEqual(snapshot.stations[1].radios, [.init(name: "hci0", inFlight: 1)])
        XCTAssertEqual(snapshot.stations[0].radios, [], "a gone station's device in flight is not counted")
        XCTAssertEqual(snapshot.inFlight.map(\.device), ["D6"], "the gone station's D7 is left out")
        XCTAssertTrue(snapshot.controlsEnabled)
    }

    func testOneLine() async throws {
        let (ledger, _) = try await makeLine()
        let snapshot = try await StationDashboardSnapshot.build(from: ledger, line: "A", now: now, controlsEnabled: false)
        await ledger.close()
        XCTAssertEqual(snapshot.totals, StationDashboardSnapshot.Totals(
            devices: 5, done: 3, failed: 1, inFlight: 1, quarantined: 1, attempts: 7, yield: 0.6,
            firstPassYield: 0.2, devicesPerHour: 2))
        XCTAssertEqual(snapshot.failuresByCause, [.init(cause: "timeout", attempts: 2, devices: 2),
                                                  .init(cause: "disconnected", attempts: 1, devices: 1)])
        XCTAssertEqual(snapshot.lines.map(\.name), ["A"])
        XCTAssertEqual(snapshot.stations.map(\.status.station), ["st-2", "st-1"], "st-3 is on line B")
        XCTAssertEqual(snapshot.recentAttempts.first?.attempt.device, "D5")

        let empty = try await StationDashboardSnapshot.build(from: emptyLedger(), line: "none", now: now,
                                                             controlsEnabled: false)
        XCTAssertNil(empty.totals.yield, "nothing to divide by")
        XCTAssertNil(empty.totals.firstPassYield)
        XCTAssertEqual(empty.lines.map(\.state), ["running"])
    }

    private func emptyLedger() async throws -> any Ledger {
        try await SQLiteLedger(path: directory.file("empty.sqlite"))
    }

    func testTheJSONHasTheContractsNamesAndFormats() async throws {
        let (ledger, _) = try await makeLine()
        let snapshot = try await StationDashboardSnapshot.build(from: ledger, now: now, controlsEnabled: true)
        await ledger.close()
        let data = snapshot.jsonData()
        XCTAssertFalse(data.contains(UInt8(ascii: "\n")), "one line, for a server-sent event")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(Set(object.keys), ["version", "generatedAt", "ledger", "line", "controls", "lines", "stations",
                                          "inFlight", "totals", "hourly", "failuresByCause", "recentAttempts", "events"])
        XCTAssertEqual(object["version"] as? Int, 1)
        XCTAssertEqual(object["generatedAt"] as? String, "2024-05-01T09:13:20.000Z")
        XCTAssertEqual(object["ledger"] as? String, "sqlite:" + directory.file("ledger.sqlite"))
        XCTAssertTrue(object["line"] is NSNull)
        XCTAssertEqual((object["controls"] as? [String: Any])?["enabled"] as? Bool, true)

        let totals = try XCTUnwrap(object["totals"] as? [String: Any])
        XCTAssertEqual(Set(totals.keys), ["devices", "done", "failed", "inFlight", "quarantined", "attempts", "yield",
                                          "firstPassYield", "devicesPerHour"])
        XCTAssertEqual(totals["yield"] as? Double, 0.5)
        XCTAssertEqual(totals["firstPassYield"] as? Double, 0.167)

        let flight = try XCTUnwrap((object["inFlight"] as? [[String: Any]])?.first)
        XCTAssertEqual(Set(flight.keys), ["device", "station", "radio", "line", "attempt", "phase", "done", "total",
                                          "bytesPerSecond", "rssi", "phy", "mtu", "startedAt", "updatedAt"])
        XCTAssertEqual(flight["bytesPerSecond"] as? Double, 8123.4)
        XCTAssertEqual(flight["phy"] as? String, "2M")
        XCTAssertEqual(flight["updatedAt"] as? String, "2024-05-01T09:13:15.000Z")

        let station = try XCTUnwrap((object["stations"] as? [[String: Any]])?.first)
        XCTAssertEqual(Set(station.keys), ["name", "host", "pid", "line", "state", "startedAt", "seenAt", "radios"])
        XCTAssertEqual(station["state"] as? String, "gone")

        let line = try XCTUnwrap((object["lines"] as? [[String: Any]])?.first)
        XCTAssertEqual(line["state"] as? String, "halted")
        let halt = try XCTUnwrap(line["halt"] as? [String: Any])
        XCTAssertEqual(Set(halt.keys), ["at", "station", "rule", "reason", "attempts"])
        XCTAssertEqual(halt["attempts"] as? [String], ["D3 #2 on st-1: failed"])
        XCTAssertTrue((object["lines"] as? [[String: Any]])?.last?["halt"] is NSNull)

        let attempt = try XCTUnwrap((object["recentAttempts"] as? [[String: Any]])?.first)
        XCTAssertEqual(Set(attempt.keys), ["device", "attempt", "station", "radio", "line", "result", "errorKind",
                                           "errorMessage", "startedAt", "endedAt", "seconds", "bytes", "audited"])
        XCTAssertTrue(attempt["radio"] is NSNull, "null, not left out")
        XCTAssertEqual(attempt["startedAt"] as? String, "2024-05-01T09:08:20.000Z")
        XCTAssertEqual(attempt["audited"] as? Bool, true)

        let event = try XCTUnwrap((object["events"] as? [[String: Any]])?.first)
        XCTAssertEqual(Set(event.keys), ["kind", "line", "at", "station", "operator", "reason", "rule", "device"])
        let hour = try XCTUnwrap((object["hourly"] as? [[String: Any]])?.first)
        XCTAssertEqual(hour["hour"] as? String, "2024-05-01T08:00:00.000Z")
        let cause = try XCTUnwrap((object["failuresByCause"] as? [[String: Any]])?.first)
        XCTAssertEqual(cause["cause"] as? String, "timeout")

        // Encodable gives the same document.
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(snapshot)) as? NSDictionary
        XCTAssertEqual(encoded, object as NSDictionary)
    }

    func testADevicesHistory() async throws {
        let (ledger, key) = try await makeLine()
        let e1 = try await XCTUnwrapAsync(await DeviceHistory.load(device: "E1", from: ledger, now: now))
        XCTAssertEqual(e1.attempts.count, 1)
        XCTAssertNotNil(e1.attempts[0].audit)
        XCTAssertNil(e1.attempts[0].audit?.problem(verifyingWith: key.publicKey))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: e1.jsonData()) as? [String: Any])
        XCTAssertTrue(object["live"] is NSNull)
        let attempt = try XCTUnwrap((object["attempts"] as? [[String: Any]])?.first)
        XCTAssertEqual(attempt["packageSHA256"] as? String, package)
        XCTAssertEqual(attempt["profile"] as? String, "vendor-ctrlpt")
        let audit = try XCTUnwrap(attempt["audit"] as? [String: Any])
        XCTAssertEqual((audit["record"] as? [String: Any])?["address"] as? String, "E1")
        XCTAssertEqual(audit["keyId"] as? String, key.publicKey.keyID)

        let d3 = try await XCTUnwrapAsync(await DeviceHistory.load(device: "D3", from: ledger, now: now))
        XCTAssertEqual(d3.attempts.map(\.attempt.errorKind), ["timeout", "disconnected"])
        XCTAssertEqual(d3.attempts.map { $0.audit == nil }, [true, true])
        XCTAssertEqual(d3.events.map(\.kind), [.quarantined])

        let d6 = try await XCTUnwrapAsync(await DeviceHistory.load(device: "D6", from: ledger, now: now))
        XCTAssertEqual(d6.attempts.count, 0)
        XCTAssertEqual(d6.live?.phase, "transfer", "in flight only")
        let d7 = try await DeviceHistory.load(device: "D7", from: ledger, now: now)
        XCTAssertNil(d7, "its station is gone: nothing to show")
        let unknown = try await DeviceHistory.load(device: "FF:FF", from: ledger, now: now)
        XCTAssertNil(unknown)
        await ledger.close()
    }
}
