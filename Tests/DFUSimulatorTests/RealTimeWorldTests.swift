import DFUGATT
import DFUSimulator
import Foundation
import XCTest

/// `realtime=SPEED` and `journal=DIR`: the options, a paced world's clock against the wall
/// clock (a lower bound on wall time only: never a timed upper bound), and the journal's lines.
final class RealTimeWorldTests: XCTestCase {
    func testRealtimeAndJournalOptions() throws {
        XCTAssertNil(try SimulatorConfiguration(parsing: "vendor-ctrlpt?fleet=3").pacing, "free-running by default")
        XCTAssertEqual(try SimulatorConfiguration(parsing: "vendor-ctrlpt?realtime=1").pacing?.speed, 1)
        XCTAssertEqual(try SimulatorConfiguration(parsing: "vendor-ctrlpt?fleet=200&realtime=10").pacing?.speed, 10)
        XCTAssertEqual(try SimulatorConfiguration(parsing: "vendor-ctrlpt?realtime=0.5").pacing?.speed, 0.5)
        XCTAssertEqual(try SimulatorConfiguration(parsing: "vendor-ctrlpt?journal=/tmp/line-a").journalDirectory, "/tmp/line-a")
        for bad in ["0", "-1", "fast", "1001", "0.001"] {
            XCTAssertThrowsError(try SimulatorConfiguration(parsing: "vendor-ctrlpt?realtime=\(bad)")) { error in
                XCTAssertEqual((error as? SimulatorConfigurationError)?.message,
                               "realtime must be a speed factor between 0.01 and 1000 (1: real time, 10: ten times faster), not '\(bad)'")
            }
        }
        XCTAssertEqual(WallClockPacing(speed: 4).wallTime(for: .seconds(2)), .milliseconds(500))
    }

    func testFleetWorldsFollowTheConfiguredPacing() throws {
        let fleet = try SimulatedFleet(try SimulatorConfiguration(parsing: "vendor-ctrlpt?fleet=2&realtime=25"))
        let world = try XCTUnwrap(fleet.world(for: DeviceAddress(string: "C0:FF:EE:00:00:02")!, attempt: 1, concurrency: 1))
        XCTAssertEqual(world.pacing?.speed, 25)
        let free = try SimulatedFleet(try SimulatorConfiguration(parsing: "vendor-ctrlpt?fleet=2"))
        XCTAssertNil(free.world(for: DeviceAddress(string: "C0:FF:EE:00:00:01")!, attempt: 1, concurrency: 1)?.pacing)
    }

    /// After every call the virtual time the world went through, divided by the speed, has
    /// passed on the wall clock: 2.5 simulated seconds at speed 10 take at least 250 ms.
    func testARealtimeWorldNeverRunsAheadOfTheWallClock() async throws {
        let speed = 10.0
        let wallStart = ContinuousClock.now
        let peripheral = ScriptedPeripheral(processingTime: .milliseconds(20), answersPerWrite: 1)
        let world = SimulatedWorld(name: "sim:test", settings: SimulatorTestSupport.settings(), peripherals: [peripheral],
                                   pacing: WallClockPacing(speed: speed))
        func assertBehindTheWallClock(_ step: String) {
            let wall = ContinuousClock.now - wallStart
            XCTAssertGreaterThanOrEqual(wall * speed, world.now, "after \(step) the world ran ahead of the wall clock")
        }
        let link = try await world.connect(to: peripheral.advertisement.address, timeout: .seconds(1))
        assertBehindTheWallClock("connect")
        for index in 0..<5 {
            try await link.write([UInt8(index)], to: ScriptedPeripheral.characteristic, type: .withResponse)
            assertBehindTheWallClock("write \(index)")
            _ = try await link.nextNotification(until: link.now + .seconds(1))
            assertBehindTheWallClock("notification \(index)")
        }
        try await link.sleep(until: link.now + .seconds(2))
        assertBehindTheWallClock("a link sleep")
        await link.disconnect()
        await world.sleep(until: world.now + .milliseconds(300))
        assertBehindTheWallClock("a world sleep")
        XCTAssertGreaterThanOrEqual(world.now, .milliseconds(2_400), "the virtual clock moved as the calls asked")
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - wallStart, .milliseconds(240))
    }

    /// A world whose process did not run for a while (here: the test blocks its thread, as
    /// SIGSTOP would) goes on at its pace afterwards: 1 simulated second at speed 4 still takes
    /// at least 250 ms of wall time, rather than being made up at once.
    func testAfterAStallTheWorldGoesOnAtItsPaceInsteadOfCatchingUp() async throws {
        let peripheral = ScriptedPeripheral()
        let world = SimulatedWorld(name: "sim:test", settings: SimulatorTestSupport.settings(), peripherals: [peripheral],
                                   pacing: WallClockPacing(speed: 4))
        let link = try await world.connect(to: peripheral.advertisement.address, timeout: .seconds(1))
        usleep(600_000)  // a stall of 600 ms, with nothing simulated meanwhile
        let resumed = ContinuousClock.now
        try await link.sleep(until: link.now + .milliseconds(10))  // the first call after the stall
        let afterStall = ContinuousClock.now
        try await link.sleep(until: link.now + .seconds(1))
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - afterStall, .milliseconds(250),
                                    "the second after the stall took its wall time")
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - resumed, .milliseconds(250))
    }

    func testTheJournalHasOneLinePerEventFromThisProcess() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dfukit-journal-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try SimulatedDeviceJournal.opening(directory: directory)
        XCTAssertTrue(try SimulatedDeviceJournal.opening(directory: directory) === journal, "opened once per process")
        let peripheral = ScriptedPeripheral()
        let world = SimulatedWorld(name: "sim:test", settings: SimulatorTestSupport.settings(), peripherals: [peripheral],
                                   journal: journal)
        let link = try await world.connect(to: peripheral.advertisement.address, timeout: .seconds(1))
        try await link.write([1, 2, 3], to: ScriptedPeripheral.characteristic, type: .withResponse)
        try await link.write(Array(repeating: 7, count: 20), to: ScriptedPeripheral.characteristic, type: .withoutResponse)
        try await link.sleep(until: link.now + .milliseconds(100))
        await link.disconnect()

        let text = try String(contentsOfFile: directory + "/journal.log", encoding: .utf8)
        XCTAssertTrue(text.hasSuffix("\n"))
        let lines = try text.split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        XCTAssertEqual(lines.map { $0["event"] as? String }, ["connect", "write", "write", "disconnect"])
        XCTAssertEqual(lines.compactMap { $0["length"] as? Int }, [3, 20])
        XCTAssertEqual(lines.compactMap { $0["handle"] as? Int }, [3, 3])
        XCTAssertEqual(lines.last?["reason"] as? String, "the central disconnected")
        XCTAssertTrue(lines.allSatisfy { $0["pid"] as? Int == Int(getpid()) && $0["device"] as? String == "C0:00:00:00:00:01" })
        let times = lines.compactMap { $0["t"] as? Int }
        XCTAssertEqual(times.count, 4)
        XCTAssertEqual(times, times.sorted(), "wall times in the order written")
        XCTAssertGreaterThan(times[0], 1_700_000_000 * 1_000_000_000, "CLOCK_REALTIME nanoseconds")
    }

    func testAnUnwritableJournalIsRefused() {
        XCTAssertThrowsError(try SimulatorConfiguration(parsing: "vendor-ctrlpt?journal=/proc/no-such/dir").journalDirectory
            .map(SimulatedDeviceJournal.opening(directory:))) { error in
            XCTAssertTrue("\(error)".contains("journal: cannot create the directory '/proc/no-such/dir'"), "\(error)")
        }
    }
}
