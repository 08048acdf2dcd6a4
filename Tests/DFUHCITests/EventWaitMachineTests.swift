@testable import DFUHCI
import XCTest

/// `EventWaitMachine` event by event: an event expected before it is caused, matched to every
/// expectation it fits, kept when it comes before the wait; timeouts and cancellations given as
/// events; the host's close delivered to every waiter; late events and timers ignored. Each
/// event's actions compared whole, in order.
final class EventWaitMachineTests: XCTestCase {
    let disconnectTimeout = HCIError(.eventTimeout(event: DisconnectionCompleteEvent.name))
    let encryptionTimeout = HCIError(.eventTimeout(event: EncryptionChangeEvent.name))

    func disconnection(_ handle: UInt16) -> HCIEvent {
        .disconnectionComplete(DisconnectionCompleteEvent(handle: handle, reason: .remoteUserTerminated))
    }

    func encryption(_ handle: UInt16) -> HCIEvent {
        .encryptionChange(EncryptionChangeEvent(handle: handle, encryptionEnabled: 1))
    }

    func disconnectionOf(_ handle: UInt16) -> EventWaitEvent {
        .expected(handle == 0x40 ? 1 : 2, match: { event in
            if case let .disconnectionComplete(complete) = event { return complete.handle == handle }
            return false
        })
    }

    func testEventDuringTheWaitCompletesItAndCancelsItsTimer() {
        var machine = EventWaitMachine()
        XCTAssertEqual(machine.handle(disconnectionOf(0x40)), [])
        XCTAssertEqual(machine.handle(.waitStarted(1, timeout: .seconds(2), timeoutError: disconnectTimeout)),
                       [.startTimer(1, after: .seconds(2))])
        XCTAssertEqual(machine.waitingCount, 1)
        XCTAssertEqual(machine.handle(.eventReceived(encryption(0x40))), [], "not the event expected")
        XCTAssertEqual(machine.handle(.eventReceived(disconnection(0x41))), [], "another connection's")
        XCTAssertEqual(machine.handle(.eventReceived(disconnection(0x40))),
                       [.cancelTimer(1), .complete(1, .success(disconnection(0x40)))])
        XCTAssertEqual(machine.pendingCount, 0)
        XCTAssertEqual(machine.handle(.eventReceived(disconnection(0x40))), [], "a second one is nobody's")
        XCTAssertEqual(machine.handle(.timerFired(1)), [], "a late timer is ignored")
    }

    /// A quick controller answers before the caller starts waiting: the event is kept for it.
    func testEventBeforeTheWaitIsKept() {
        var machine = EventWaitMachine()
        _ = machine.handle(disconnectionOf(0x40))
        XCTAssertEqual(machine.handle(.eventReceived(disconnection(0x40))), [])
        XCTAssertEqual(machine.handle(.eventReceived(disconnection(0x40))), [], "only the first is kept")
        XCTAssertEqual(machine.handle(.waitStarted(1, timeout: .seconds(2), timeoutError: disconnectTimeout)),
                       [.complete(1, .success(disconnection(0x40)))], "no timer: answered at once")
        XCTAssertEqual(machine.pendingCount, 0)
    }

    func testOneEventGoesToEveryExpectationItMatchesInOrder() {
        var machine = EventWaitMachine()
        let anyConnection: @Sendable (HCIEvent) -> Bool = { event in
            if case .disconnectionComplete = event { return true }
            return false
        }
        _ = machine.handle(.expected(1, match: anyConnection))
        _ = machine.handle(.expected(2, match: anyConnection))
        _ = machine.handle(.expected(3, match: anyConnection))
        _ = machine.handle(.waitStarted(3, timeout: .seconds(1), timeoutError: disconnectTimeout))
        _ = machine.handle(.waitStarted(1, timeout: .seconds(1), timeoutError: disconnectTimeout))
        XCTAssertEqual(machine.handle(.eventReceived(disconnection(0x40))),
                       [.cancelTimer(1), .complete(1, .success(disconnection(0x40))),
                        .cancelTimer(3), .complete(3, .success(disconnection(0x40)))],
                       "in the order expected; the one not yet waiting keeps it")
        XCTAssertEqual(machine.handle(.waitStarted(2, timeout: .seconds(1), timeoutError: disconnectTimeout)),
                       [.complete(2, .success(disconnection(0x40)))])
    }

    func testTimeoutFailsWithTheWaitsOwnErrorAndALateEventIsIgnored() {
        var machine = EventWaitMachine()
        _ = machine.handle(disconnectionOf(0x40))
        XCTAssertEqual(machine.handle(.timerFired(1)), [], "no timer before the wait")
        _ = machine.handle(.waitStarted(1, timeout: .milliseconds(500), timeoutError: disconnectTimeout))
        XCTAssertEqual(machine.handle(.timerFired(1)), [.complete(1, .failure(disconnectTimeout))])
        XCTAssertEqual(machine.handle(.eventReceived(disconnection(0x40))), [], "too late")
        XCTAssertEqual(machine.pendingCount, 0)
    }

    func testCancelledWaitFailsAsATimeoutWould() {
        var machine = EventWaitMachine()
        _ = machine.handle(disconnectionOf(0x40))
        XCTAssertEqual(machine.handle(.waitCancelled(1)), [], "nobody waits yet")
        _ = machine.handle(.waitStarted(1, timeout: .seconds(5), timeoutError: disconnectTimeout))
        XCTAssertEqual(machine.handle(.waitCancelled(1)), [.cancelTimer(1), .complete(1, .failure(disconnectTimeout))])
        XCTAssertEqual(machine.handle(.waitCancelled(1)), [], "once")
        XCTAssertEqual(machine.handle(.eventReceived(disconnection(0x40))), [])
    }

    func testCancelledExpectationIsForgotten() {
        var machine = EventWaitMachine()
        _ = machine.handle(disconnectionOf(0x40))
        _ = machine.handle(.eventReceived(disconnection(0x40)))
        XCTAssertEqual(machine.handle(.expectationCancelled(1)), [], "its kept event goes with it")
        XCTAssertEqual(machine.pendingCount, 0)
        XCTAssertEqual(machine.handle(.waitStarted(1, timeout: .seconds(1), timeoutError: disconnectTimeout)),
                       [.complete(1, .failure(disconnectTimeout))], "a wait for nothing expected fails at once")
    }

    func testHostClosedFailsEveryWaiterAndEveryLaterWait() {
        var machine = EventWaitMachine()
        let closed = HCIError(.transportClosed, detail: "the controller went away")
        _ = machine.handle(disconnectionOf(0x40))
        _ = machine.handle(disconnectionOf(0x41))
        _ = machine.handle(.expected(3, match: { _ in true }))
        _ = machine.handle(.waitStarted(1, timeout: .seconds(1), timeoutError: disconnectTimeout))
        _ = machine.handle(.waitStarted(3, timeout: .seconds(1), timeoutError: encryptionTimeout))
        XCTAssertEqual(machine.handle(.hostClosed(closed)),
                       [.cancelTimer(1), .complete(1, .failure(closed)), .cancelTimer(3), .complete(3, .failure(closed))])
        XCTAssertEqual(machine.handle(.waitStarted(2, timeout: .seconds(1), timeoutError: disconnectTimeout)),
                       [.complete(2, .failure(closed))], "expected before the close, waited for after it")
        _ = machine.handle(.expected(4, match: { _ in true }))
        XCTAssertEqual(machine.handle(.eventReceived(disconnection(0x40))), [], "late events are ignored")
        XCTAssertEqual(machine.handle(.waitStarted(4, timeout: .seconds(1), timeoutError: encryptionTimeout)),
                       [.complete(4, .failure(closed))])
        XCTAssertEqual(machine.handle(.hostClosed(HCIError(.transportClosed))), [], "closed once")
        XCTAssertEqual(machine.handle(.timerFired(1)), [])
    }
}
