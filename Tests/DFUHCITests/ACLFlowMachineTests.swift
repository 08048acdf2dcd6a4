@testable import DFUHCI
import XCTest

/// `ACLFlowMachine` event by event: send turns per connection, credits across connections
/// (Core Vol 4, Part E, 4.1.1), each event's actions compared whole, in order.
final class ACLFlowMachineTests: XCTestCase {
    func testCreditsRunOutAndComeBackWithNumberOfCompletedPackets() {
        var machine = ACLFlowMachine(capacity: 2)
        XCTAssertEqual(machine.handle(.creditRequested(1, handle: 0x40)), [.grantCredit(1)])
        XCTAssertEqual(machine.handle(.creditRequested(1, handle: 0x40)), [.grantCredit(1)])
        XCTAssertEqual(machine.handle(.creditRequested(1, handle: 0x40)), [.startCreditTimer(1)], "no buffer left")
        XCTAssertEqual(machine.handle(.creditRequested(2, handle: 0x41)), [.startCreditTimer(2)])
        XCTAssertEqual(machine.availableCredits, 0)
        XCTAssertEqual(machine.handle(.packetsCompleted(handle: 0x40, count: 1)), [.cancelCreditTimer(1), .grantCredit(1)],
                       "the oldest waiter first")
        XCTAssertEqual(machine.handle(.packetsCompleted(handle: 0x40, count: 5)), [.cancelCreditTimer(2), .grantCredit(2)],
                       "the next waiter, on another connection")
        XCTAssertEqual(machine.availableCredits, 1, "a confused controller's 5 counts as the 2 outstanding on 0x40")
        XCTAssertEqual(machine.handle(.packetsCompleted(handle: 0x41, count: 1)), [])
        XCTAssertEqual(machine.availableCredits, 2)
    }

    func testAWaitingSenderDoesNotLoseItsPlaceToANewcomer() {
        var machine = ACLFlowMachine(capacity: 1)
        _ = machine.handle(.creditRequested(1, handle: 0x40))
        XCTAssertEqual(machine.handle(.creditRequested(2, handle: 0x40)), [.startCreditTimer(2)])
        XCTAssertEqual(machine.handle(.creditUnused(handle: 0x40)), [.cancelCreditTimer(2), .grantCredit(2)],
                       "a credit whose packet never went out is handed on")
        XCTAssertEqual(machine.handle(.creditRequested(3, handle: 0x40)), [.startCreditTimer(3)])
        XCTAssertEqual(machine.handle(.creditTimedOut(3)), [.refuseCredit(3, handle: 0x40, timedOut: true)])
        XCTAssertEqual(machine.creditWaitCount, 0)
        XCTAssertEqual(machine.handle(.creditTimedOut(3)), [], "a late timer is ignored")
    }

    func testAClosedConnectionFreesItsBuffersAndItsWaitersGiveUp() {
        var machine = ACLFlowMachine(capacity: 2)
        _ = machine.handle(.creditRequested(1, handle: 0x40))
        _ = machine.handle(.creditRequested(2, handle: 0x41))
        XCTAssertEqual(machine.handle(.creditRequested(3, handle: 0x40)), [.startCreditTimer(3)])
        XCTAssertEqual(machine.handle(.creditRequested(4, handle: 0x41)), [.startCreditTimer(4)])
        XCTAssertEqual(machine.handle(.connectionClosed(handle: 0x40, connection: 7)),
                       [.cancelCreditTimer(3), .refuseCredit(3, handle: 0x40, timedOut: false),
                        .cancelCreditTimer(4), .grantCredit(4)],
                       "0x40's packet in the controller is dropped: its buffer goes to 0x41's waiter")
        XCTAssertEqual(machine.flow.outstanding(on: 0x40), 0)
        XCTAssertEqual(machine.flow.outstanding(on: 0x41), 2)
    }

    func testOneFrameAtATimePerConnectionAndAReusedHandleIsANewConnection() {
        var machine = ACLFlowMachine(capacity: 4)
        XCTAssertEqual(machine.handle(.frameStarted(1, connection: 7)), [.grantTurn(1)])
        XCTAssertEqual(machine.handle(.frameStarted(2, connection: 7)), [], "waits for frame 1's last fragment")
        XCTAssertEqual(machine.handle(.frameStarted(3, connection: 8)), [.grantTurn(3)], "another connection")
        XCTAssertEqual(machine.handle(.frameFinished(1, connection: 7)), [.grantTurn(2)])
        XCTAssertEqual(machine.handle(.frameStarted(4, connection: 7)), [])
        XCTAssertEqual(machine.handle(.connectionClosed(handle: 0x40, connection: 7)), [.refuseTurn(4)])
        // The controller hands 0x40 to a new connection (ID 9): sender 2, still sending on the
        // old one, cannot pass its turn to anyone there.
        XCTAssertEqual(machine.handle(.frameStarted(5, connection: 9)), [.grantTurn(5)])
        XCTAssertEqual(machine.handle(.frameFinished(2, connection: 7)), [])
        XCTAssertEqual(machine.handle(.frameStarted(6, connection: 9)), [], "5 still holds connection 9's turn")
    }

    func testClosingTheHostRefusesEveryWaiter() {
        var machine = ACLFlowMachine(capacity: 1)
        _ = machine.handle(.frameStarted(1, connection: 7))
        _ = machine.handle(.frameStarted(2, connection: 7))
        _ = machine.handle(.creditRequested(1, handle: 0x40))
        _ = machine.handle(.creditRequested(3, handle: 0x41))
        XCTAssertEqual(machine.handle(.hostClosed),
                       [.refuseTurn(2), .cancelCreditTimer(3), .refuseCredit(3, handle: 0x41, timedOut: false)])
        XCTAssertEqual(machine.creditWaitCount, 0)
    }
}
