@testable import DFUSimulator
import XCTest

/// The reset / boot state machine every timed device keeps.
final class PowerCycleTests: XCTestCase {
    private func ms(_ value: Int) -> Duration { .milliseconds(value) }

    func testRunsThenResetsThenBootsThenRunsAgain() {
        var cycle = PowerCycle()
        XCTAssertNil(cycle.deadline)
        XCTAssertTrue(cycle.isAdvertising)
        cycle.scheduleReset(at: ms(250))
        XCTAssertEqual(cycle.deadline, ms(250))
        XCTAssertTrue(cycle.isAdvertising, "the firmware still runs until its reset")
        XCTAssertNil(cycle.due(at: ms(249)))
        XCTAssertEqual(cycle.due(at: ms(250)), .reset)
        cycle.rebooted(at: ms(250), silentFor: ms(1_000))
        XCTAssertFalse(cycle.isAdvertising)
        XCTAssertTrue(cycle.isBooting)
        XCTAssertEqual(cycle.deadline, ms(1_250))
        XCTAssertNil(cycle.due(at: ms(1_000)))
        XCTAssertEqual(cycle.due(at: ms(1_250)), .booted)
        XCTAssertEqual(cycle.phase, .running)
        XCTAssertTrue(cycle.isAdvertising)
    }

    func testASecondResetKeepsTheEarlierTimeAndABootingDeviceArmsNone() {
        var cycle = PowerCycle()
        cycle.scheduleReset(at: ms(250))
        cycle.scheduleReset(at: ms(400))
        XCTAssertEqual(cycle.deadline, ms(250), "as k_work_schedule leaves scheduled work alone")
        cycle.scheduleReset(at: ms(100), advertises: false)
        XCTAssertEqual(cycle.phase, .resetDue(at: ms(100), advertises: false))
        cycle.rebooted(at: ms(100), silentFor: ms(50))
        cycle.scheduleReset(at: ms(120))
        XCTAssertEqual(cycle.phase, .booting(until: ms(150)))
    }

    func testABootloaderThatEndsItsLinkToResetDoesNotAdvertise() {
        var cycle = PowerCycle()
        cycle.scheduleReset(at: ms(300), advertises: false)
        XCTAssertFalse(cycle.isAdvertising)
    }

    func testShiftMovesDeadlines() {
        var cycle = PowerCycle()
        cycle.scheduleReset(at: ms(5_000))
        cycle.shift(by: ms(-4_000))
        XCTAssertEqual(cycle.deadline, ms(1_000))
        cycle.rebooted(at: ms(1_000), silentFor: ms(500))
        cycle.shift(by: ms(100))
        XCTAssertEqual(cycle.deadline, ms(1_600))
    }
}
