@testable import DFUBatch
import DFUGATT
import XCTest

/// Which radio takes which device (`RadioAssignment`), event by event, with no radio at all.
final class RadioAssignmentTests: XCTestCase {
    private func address(_ last: Int) -> DeviceAddress { DeviceAddress(string: "C0:FF:EE:00:00:01")!.adding(Int64(last - 1)) }
    private typealias Sighting = RadioAssignment.Sighting

    func testTheStrongestRadioTakesADeviceHeardBySeveral() {
        XCTAssertEqual(RadioAssignment.choose(strength: [0: -80, 1: -45], loads: [0, 0], alive: [true, true]), 1)
        XCTAssertEqual(RadioAssignment.choose(strength: [0: -40, 1: -70, 2: -52], loads: [5, 0, 0], alive: [true, true, true]),
                       0, "12 dB stronger wins even on a busier radio")
        XCTAssertEqual(RadioAssignment.choose(strength: [1: -90], loads: [0, 9], alive: [true, true]), 1,
                       "only radio 1 heard it: a radio that did not hear a device never takes it")
    }

    func testReadingsWithinTheMarginGoToTheLeastLoadedThenTheFirst() {
        let margin = RadioAssignment.rssiMargin
        XCTAssertEqual(RadioAssignment.choose(strength: [0: -50, 1: -50 - margin], loads: [3, 1], alive: [true, true]), 1,
                       "\(margin) dB apart is noise: the less loaded takes it")
        XCTAssertEqual(RadioAssignment.choose(strength: [0: -50, 1: -51 - margin], loads: [3, 1], alive: [true, true]), 0,
                       "\(margin + 1) dB apart is not")
        XCTAssertEqual(RadioAssignment.choose(strength: [0: -50, 1: -50], loads: [2, 2], alive: [true, true]), 0,
                       "a tie in strength and load: the first radio")
    }

    func testAnUnheardDeviceGoesToTheLeastLoadedLiveRadioAndNoneWithoutOne() {
        XCTAssertEqual(RadioAssignment.choose(strength: [:], loads: [2, 1, 0], alive: [true, true, false]), 1)
        XCTAssertEqual(RadioAssignment.choose(strength: [2: -40], loads: [2, 1, 0], alive: [true, true, false]), 1,
                       "heard only by a failed radio: as if unheard")
        XCTAssertNil(RadioAssignment.choose(strength: [0: -40], loads: [0], alive: [false]))
    }

    func testEquallyHeardDevicesAlternateAndAreGivenOnce() {
        var assignment = RadioAssignment(radios: 2, target: nil)
        let sightings = (1...6).map { Sighting(address: address($0), strength: [0: -50, 1: -52]) }
        let given = assignment.assign(sightings)
        XCTAssertEqual(given.map(\.1), [0, 1, 0, 1, 0, 1])
        XCTAssertTrue(assignment.assign(sightings).isEmpty, "a device is given once")
        XCTAssertEqual(assignment.waiting(on: 0), [address(1), address(3), address(5)])
        XCTAssertEqual(assignment.radio(of: address(4)), 1)
    }

    func testALaterScanSparesTheNeighboursOfDevicesTaken() {
        var assignment = RadioAssignment(radios: 2, target: 10)
        assignment.assign([Sighting(address: address(5), strength: [0: -40])])
        let found = [4, 6, 8, 9].map { Sighting(address: address($0), strength: [1: -40]) }
        let taken = assignment.assign(found, sparingNeighbours: true)
        XCTAssertEqual(taken.map(\.0), [address(8), address(9)],
                       "4 and 6 may be device 5 in its bootloader or application; 8 and 9, heard together, are two")
        XCTAssertEqual(taken.map(\.1), [1, 1])
    }

    func testNextKeepsToTheCountAndStopsWhenTold() {
        var assignment = RadioAssignment(radios: 2, target: 2)
        assignment.assign((1...4).map { Sighting(address: address($0), strength: [0: -50, 1: -50]) })
        let first = assignment.next(for: 0), second = assignment.next(for: 1)
        XCTAssertEqual([first, second], [address(1), address(2)])
        XCTAssertNil(assignment.next(for: 0), "two running meet the count")
        assignment.finished(address(1), counted: false)
        XCTAssertEqual(assignment.next(for: 0), address(3), "a failed device leaves room for another")
        assignment.stop()
        XCTAssertFalse(assignment.canStart(on: 1))
        XCTAssertNil(assignment.next(for: 1))
    }

    func testAFailedRadioHandsBackItsWaitingDevicesOnceAndStartsNothing() {
        var assignment = RadioAssignment(radios: 2, target: nil)
        assignment.assign((1...4).map { Sighting(address: address($0), strength: [0: -50, 1: -50]) })
        XCTAssertEqual(assignment.next(for: 1), address(2))
        XCTAssertEqual(assignment.fail(1, reason: "adapter gone"), [address(4)])
        XCTAssertNil(assignment.fail(1, reason: "again"), "said once")
        XCTAssertEqual(assignment.failure(of: 1), "adapter gone")
        XCTAssertNil(assignment.next(for: 1))
        XCTAssertEqual(assignment.next(for: 0), address(1), "the other radio goes on")
        assignment.assign([Sighting(address: address(9), strength: [1: -30])])
        XCTAssertEqual(assignment.radio(of: address(9)), 0, "heard only by the failed radio: the live one takes it")
    }

    func testAnIdleRadioScansWhileTheCountIsUnmetWaitsWhileOthersRunAndEndsOtherwise() {
        var assignment = RadioAssignment(radios: 2, target: 3)
        assignment.assign([Sighting(address: address(1), strength: [0: -50]), Sighting(address: address(2), strength: [0: -50])])
        XCTAssertEqual(assignment.idleAction(for: 1, mayScan: true), .scan, "2 waiting of 3 wanted")
        XCTAssertEqual(assignment.idleAction(for: 1, mayScan: false), .end, "a line of listed devices never scans")
        assignment.assign([Sighting(address: address(7), strength: [1: -50])])
        _ = assignment.next(for: 0)
        _ = assignment.next(for: 1)
        _ = assignment.next(for: 0)
        XCTAssertEqual(assignment.idleAction(for: 1, mayScan: true), .wait, "three running meet the count, if they succeed")
        assignment.finished(address(7), counted: false)
        XCTAssertEqual(assignment.idleAction(for: 1, mayScan: true), .scan, "one failed: one more is wanted")
        assignment.finished(address(1), counted: true)
        assignment.finished(address(2), counted: true)
        XCTAssertEqual(assignment.idleAction(for: 0, mayScan: true), .scan)
        XCTAssertEqual(assignment.fail(0, reason: "gone"), [])
        XCTAssertEqual(assignment.idleAction(for: 0, mayScan: true), .end, "a failed radio ends")
    }

    func testARadioWithDevicesHeldBackByTheCountWaitsForTheOthers() {
        var assignment = RadioAssignment(radios: 2, target: 1)
        assignment.assign([Sighting(address: address(1), strength: [0: -50]), Sighting(address: address(2), strength: [1: -50])])
        _ = assignment.next(for: 0)
        XCTAssertFalse(assignment.canStart(on: 1))
        XCTAssertEqual(assignment.idleAction(for: 1, mayScan: false), .wait, "radio 0's device may fail")
        assignment.finished(address(1), counted: true)
        XCTAssertEqual(assignment.idleAction(for: 1, mayScan: false), .end, "the count is met")
    }
}
